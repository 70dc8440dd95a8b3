// html_layout.js — appended to a copy of an --html page by smoke_html.sh:
// the page's own layout (getBBox of every SVG text, in viewBox units) is
// checked for overlapping and clipped text, and the result is written into
// the DOM for headless Chromium's --dump-dom. The page runs in an iframe
// of the width under test (headless windows have a minimum width), so the
// result goes to the parent document.
(function () {
	var problems = [], ntext = 0, sizes = [];
	var body = parseFloat(getComputedStyle(document.body).fontSize);
	document.querySelectorAll('svg').forEach(function (svg, si) {
		var vb = svg.viewBox.baseVal, boxes = [];
		var scale = svg.getBoundingClientRect().width / vb.width;
		var name = svg.getAttribute('aria-label') || ('svg ' + si);
		svg.querySelectorAll('text').forEach(function (t) {
			var b = t.getBBox();
			ntext++;
			sizes.push(parseFloat(getComputedStyle(t).fontSize) * scale);
			boxes.push({ t: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height });
		});
		boxes.forEach(function (a, i) {
			if (a.w <= 0 || a.h <= 0)
				problems.push(name + ': "' + a.t + '" has no box');
			if (a.x < vb.x - 0.5 || a.y < vb.y - 0.5 || a.x + a.w > vb.x + vb.width + 0.5 ||
			    a.y + a.h > vb.y + vb.height + 0.5)
				problems.push(name + ': "' + a.t + '" clipped: ' + [a.x, a.y, a.w, a.h].map(Math.round));
			for (var j = i + 1; j < boxes.length; j++) {
				var b = boxes[j];
				if (a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 &&
				    a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5)
					problems.push(name + ': "' + a.t + '" overlaps "' + b.t + '"');
			}
		});
	});
	var out = window.parent !== window ? window.parent.document : document;
	var pre = out.createElement('pre');
	pre.id = 'layout-result';
	pre.textContent = JSON.stringify({ width: window.innerWidth, body_px: body, texts: ntext,
		svgs: document.querySelectorAll('svg').length,
		max_text_px: Math.max.apply(null, sizes), min_text_px: Math.min.apply(null, sizes),
		problems: problems });
	out.body.appendChild(pre);
})();
