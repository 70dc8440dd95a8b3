// html_align.js — appended (after html_layout.js) to a copy of an --html page
// by smoke_watch_report.sh: every table's columns are measured in the laid-out
// page. The edge a column's body cells are aligned to (their computed
// text-align: right for figures, left for words) must be shared, within 1.5 px,
// by the text box (a Range over the cell's contents) of every body cell and of
// the header cell above them; a column whose every cell is a <td> holding a
// figure must be right-aligned. This is what D7 of issue #40 got wrong: a left header over
// right-aligned counts reads as the neighbouring column's. The verdict goes
// into the DOM (the parent's when in an iframe) for headless Chromium's
// --dump-dom.
(function () {
	var TOL = 1.5, problems = [], ntables = 0, ncols = 0, ncells = 0;
	// a figure: "25", "74.2 µs", "5.26×", "4 h 30 min", "5.0% / 20.0%"; not a date
	var FIGURE = /^[-+−]?[0-9]/, DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}/;

	function box(cell) {
		var r = document.createRange();
		r.selectNodeContents(cell);
		var b = r.getBoundingClientRect();
		return b.width > 0 ? b : null;
	}
	function edge(align) {
		return align === 'right' || align === 'end' ? 'right' : align === 'center' ? 'center' : 'left';
	}
	function at(b, e) {
		return e === 'right' ? b.right : e === 'center' ? (b.left + b.right) / 2 : b.left;
	}

	document.querySelectorAll('table').forEach(function (table, ti) {
		var rows = Array.prototype.slice.call(table.rows);
		if (rows.length < 2)
			return;
		var head = rows[0];
		if (!Array.prototype.every.call(head.cells, function (c) { return c.tagName === 'TH'; }))
			return; // no header row: nothing above the columns to align
		ntables++;
		var sec = table.closest('section');
		var name = 'table ' + ti + (sec ? ' in #' + sec.id : '');
		var cols = [];
		rows.forEach(function (tr, ri) {
			var c = 0;
			Array.prototype.forEach.call(tr.cells, function (cell) {
				if (cell.colSpan === 1) {
					cols[c] = cols[c] || { head: null, body: [] };
					if (ri === 0)
						cols[c].head = cell;
					else
						cols[c].body.push(cell);
				}
				c += cell.colSpan;
			});
		});
		cols.forEach(function (col, ci) {
			var cells = col.body.map(function (cell) {
				return { cell: cell, b: box(cell), e: edge(getComputedStyle(cell).textAlign),
					 t: cell.textContent.trim() };
			}).filter(function (x) { return x.b; });
			if (!cells.length)
				return;
			ncols++;
			ncells += cells.length;
			var hname = col.head ? col.head.textContent.trim() : '';
			var cname = name + ' column ' + (ci + 1) + ' "' + hname + '"';
			// the column's edge: what most of its body cells are aligned to
			var votes = {};
			cells.forEach(function (x) { votes[x.e] = (votes[x.e] || 0) + 1; });
			var e = Object.keys(votes).sort(function (a, b) { return votes[b] - votes[a]; })[0];
			// row labels (<th> in the body, e.g. "16 MiB" working sets) are names, not figures
			if (cells.every(function (x) { return x.cell.tagName === 'TD' && FIGURE.test(x.t) &&
						       !DATE.test(x.t); }) && e !== 'right')
				problems.push(cname + ': figures aligned ' + e + ', not right');
			var ref = at(cells[0].b, e);
			cells.forEach(function (x) {
				if (x.e !== e || Math.abs(at(x.b, e) - ref) > TOL)
					problems.push(cname + ': cell "' + x.t + '" aligned ' + x.e + ' at ' +
						      at(x.b, x.e).toFixed(1) + ', the column ' + e + ' at ' + ref.toFixed(1));
			});
			var hb = col.head && box(col.head);
			if (hb && Math.abs(at(hb, e) - ref) > TOL)
				problems.push(cname + ': header ' + e + ' edge at ' + at(hb, e).toFixed(1) +
					      ', its cells\' at ' + ref.toFixed(1) + ' (header aligned ' +
					      edge(getComputedStyle(col.head).textAlign) + ')');
		});
	});
	var out = window.parent !== window ? window.parent.document : document;
	var pre = out.createElement('pre');
	pre.id = 'align-result';
	pre.textContent = JSON.stringify({ width: window.innerWidth, tables: ntables, columns: ncols,
		cells: ncells, problems: problems });
	out.body.appendChild(pre);
})();
