# html_frames.sh — sourced by the tests that measure pages in headless
# Chromium: chromium_dom IN OUT loads file IN and writes the DOM its scripts
# leave to OUT (a fresh profile under $tmp; 90 s at most; nothing fetched).
# Pages of several frames: tests/helpers/html_frames.py. CHROMIUM: the
# browser, empty when none is installed (the caller skips).
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
chromium_dom() {
	local prof
	prof=$(mktemp -d "$tmp/prof.XXXXXX")
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --window-size=1400,3000 --dump-dom "file://$1" > "$2" 2>/dev/null
}
