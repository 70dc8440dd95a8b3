#!/usr/bin/env python3
"""html_frames.py HEIGHT IDS JS[,JS...] NAME:WIDTH:PAGE... > frames.html

One page of iframes for headless Chromium's --dump-dom (tests/helpers/html_frames.sh):
each PAGE at WIDTH px, HEIGHT px tall, with the JS files run in it; each pre#ID a
script leaves in the parent is tagged data-page="NAME", so one dump holds every
page's results apart. IDS: the pre ids, comma-separated."""
import html
import sys

height, ids, scripts = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
js = "\n".join(open(p).read() for p in scripts)
tag = "".join("\n(function () { var r = parent.document.querySelectorAll('pre#%s:not([data-page])');"
              " r[r.length - 1].setAttribute('data-page', '%%s'); })();" % k for k in ids)
frames = []
for spec in sys.argv[4:]:
    name, width, path = spec.split(":", 2)
    page = open(path, encoding="utf-8").read()
    page = page.replace("</body></html>", "<script>" + js + tag.replace("%s", name) + "</script></body></html>")
    frames.append('<iframe style="border:0;display:block" width="%s" height="%s" srcdoc="%s"></iframe>'
                  % (width, height, html.escape(page, quote=True)))
print('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">%s</body></html>'
      % "".join(frames))
