# smoke_upload.sh — --upload against local collectors on 127.0.0.1 only
# (tests/helpers/upload_server.py; a CA made with openssl in a temp dir):
# TLS verification, http refusal, retries on 5xx and connect errors, the
# timeout, redirects, the saved report equal to the one received, and the
# header value never shown.
. tests/lib.sh
SYSPY=python3 # (Debian's: tests/lib.sh puts it first on PATH)
tmp=$(t_tmpdir)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
H=$PWD/tests/helpers
SCHEMA=$PWD/schema/report.schema.json
case $VPSBENCH in /*) VB=$VPSBENCH ;; *) VB=$PWD/$VPSBENCH ;; esac
# nothing may leave the machine, and no proxy may sit in between
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
unset SSL_CERT_FILE SSL_CERT_DIR
export VPSBENCH_UPLOAD_BACKOFF_MS=50
TOKEN="s3cr3t-token-$$-$RANDOM"

if ! command -v openssl >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	t_skip upload "needs openssl and python3"
	t_summary upload
	exit 0
fi
if "$VB" --only sysinfo --upload ftp://x/ 2>&1 | grep -q 'built without libcurl'; then
	t_skip upload "built without libcurl"
	t_summary upload
	exit 0
fi
mkdir -p "$tmp/certs" "$tmp/run"
sh "$H/mkcert.sh" "$tmp/certs" || { t_fail mkcert; t_summary upload; exit 1; }
CA=$tmp/certs/ca.crt

# start_server NAME MODE [tls] [extra args]: sets PORT; files in $tmp/NAME
start_server() {
	local name=$1 mode=$2 tls=$3; shift 3
	local out=$tmp/$name i
	mkdir -p "$out"
	if [ "$tls" = tls ]; then
		"$SYSPY" "$H/upload_server.py" --mode "$mode" --out "$out" \
			--tls "$tmp/certs/srv.crt" "$tmp/certs/srv.key" "$@" &
	else
		"$SYSPY" "$H/upload_server.py" --mode "$mode" --out "$out" "$@" &
	fi
	pids="$pids $!"
	for i in $(seq 100); do [ -s "$out/port" ] && break; sleep 0.05; done
	PORT=$(cat "$out/port" 2>/dev/null)
}
count() { cat "$tmp/$1/count" 2>/dev/null || echo 0; }
# run NAME ARGS...: runs vpsbench in $tmp/run (--only sysinfo), keeps rc/out/err
# Every run that uploads carries the token (unless it brings its own header),
# so every failure path's messages are checked for a leak at the end.
TOKEN_RUNS=0
run() {
	local n=$1; shift
	case " $* " in
	*" --upload-header "*) TOKEN_RUNS=$((TOKEN_RUNS + 1)) ;;
	*" --upload "*) set -- "$@" --upload-header "X-Token: $TOKEN"; TOKEN_RUNS=$((TOKEN_RUNS + 1)) ;;
	esac
	( cd "$tmp/run" && "$VB" --quiet --only sysinfo "$@" ) >"$tmp/$n.out" 2>"$tmp/$n.err"
	RC=$?
	cat "$tmp/$n.out" "$tmp/$n.err" >> "$tmp/all_output"
}
saved() { sed -n 's/^vpsbench: report saved to //p' "$tmp/$1.err" | head -n 1; }

# refusals before anything runs: exit 1, nothing written, nothing sent
start_server plain ok plain
run http_refused --upload "http://127.0.0.1:$PORT/up"
if [ $RC -eq 1 ] && grep -q -- '--allow-http' "$tmp/http_refused.err" && [ "$(count plain)" = 0 ] \
   && [ -z "$(ls -A "$tmp/run")" ]; then t_ok http_refused; else t_fail http_refused "rc=$RC"; fi
run ftp_refused --upload "ftp://127.0.0.1:$PORT/up"
[ $RC -eq 1 ] && grep -q 'only https' "$tmp/ftp_refused.err" && t_ok ftp_refused \
	|| t_fail ftp_refused "rc=$RC"
run bad_header --upload "https://127.0.0.1:1/" --upload-header "X-Token $TOKEN"
[ $RC -eq 1 ] && grep -q 'Name: value' "$tmp/bad_header.err" && t_ok bad_header_refused \
	|| t_fail bad_header_refused "rc=$RC"
run no_cacert_file --upload "https://127.0.0.1:1/" --cacert "$tmp/nonexistent.pem"
[ $RC -eq 1 ] && grep -q 'nonexistent.pem: No such file' "$tmp/no_cacert_file.err" \
	&& t_ok cacert_missing_refused || t_fail cacert_missing_refused "rc=$RC"

# --allow-http lets a plain collector receive it
run http_allowed --upload "http://127.0.0.1:$PORT/up" --allow-http --output "$tmp/http.json"
if [ $RC -eq 0 ] && [ "$(count plain)" = 1 ] && cmp -s "$tmp/http.json" "$tmp/plain/body"; then
	t_ok http_allowed; else t_fail http_allowed "rc=$RC $(head -c 300 "$tmp/http_allowed.err")"; fi

# TLS: the test CA is not trusted by the system bundle
start_server tls ok tls
run tls_untrusted --upload "https://127.0.0.1:$PORT/up"
f=$(saved tls_untrusted)
if [ $RC -eq 4 ] && grep -qi 'certificate' "$tmp/tls_untrusted.err" && [ "$(count tls)" = 0 ] \
   && [ -n "$f" ] && [ -s "$tmp/run/$f" ]; then t_ok tls_verify_fails_without_cacert
else t_fail tls_verify_fails_without_cacert "rc=$RC $(head -c 300 "$tmp/tls_untrusted.err")"; fi
rm -f "$tmp"/run/*

# with --cacert: received byte for byte what was saved; schema-valid; token never shown
run tls_ok --upload "https://127.0.0.1:$PORT/up" --cacert "$CA" --upload-header "X-Token: $TOKEN" \
	--output "$tmp/sent.json"
if [ $RC -eq 0 ] && grep -q 'HTTP 200: stored ok$' "$tmp/tls_ok.err" && [ "$(count tls)" = 1 ]; then
	t_ok tls_ok_with_cacert; else t_fail tls_ok_with_cacert "rc=$RC $(head -c 300 "$tmp/tls_ok.err")"; fi
cmp -s "$tmp/sent.json" "$tmp/tls/body" && t_ok received_equals_saved || t_fail received_equals_saved
grep -qi '^content-type: application/json' "$tmp/tls/headers" && grep -q "^X-Token: $TOKEN" "$tmp/tls/headers" \
	&& grep -qi '^idempotency-key: [0-9a-f]\{32\}' "$tmp/tls/headers" && t_ok request_headers \
	|| t_fail request_headers "$(cat "$tmp/tls/headers")"
grep -q 'second line' "$tmp/tls_ok.err" && t_fail first_line_only || t_ok first_line_only
PY=""
for p in /usr/bin/python3 python3; do
	"$p" -c 'from jsonschema import Draft202012Validator' 2>/dev/null && { PY=$p; break; }
done
if [ -n "$PY" ]; then
	"$PY" "$H/validate.py" "$SCHEMA" "$tmp/tls/body" > "$tmp/.val" 2>&1 && t_ok received_validates \
		|| t_fail received_validates "$(head -c 400 "$tmp/.val")"
else
	t_skip received_validates "python3-jsonschema not installed"
fi

# --upload-format yabs as --format yabs: the default profile has no
# yabs-shaped pass, so yabs's four are added and stderr says so; the body's
# fio[] has yabs's shape (yabs's own example, yabs_check.py) and the figures
# of the run's saved JSON report (truth.py yabs: KiB/s and IOPS of each pass)
tls_port=$PORT
start_server yabs ok tls
mkdir -p "$tmp/yd"
( cd "$tmp/run" && "$VB" --quiet --only sysinfo,rand --dir "$tmp/yd" --size 16M --runtime 1 --ramp 0 \
	--upload "https://127.0.0.1:$PORT/up" --cacert "$CA" --upload-format yabs --output "$tmp/ys.json" ) \
	>"$tmp/ys.out" 2>"$tmp/ys.err"; RC=$?
if [ $RC -eq 0 ] && [ "$(count yabs)" = 1 ] &&
   grep -q "^vpsbench: --upload-format yabs: profile default has no pass with yabs's settings; running yabs's" "$tmp/ys.err"
then t_ok upload_yabs_adds_yabs_passes; else t_fail upload_yabs_adds_yabs_passes "rc=$RC $(head -c 400 "$tmp/ys.err")"; fi
python3 "$H/yabs_check.py" "$H/yabs-example.json" "$tmp/yabs/body" > "$tmp/.yc" 2>&1 &&
	python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["fio"]; sys.exit([e["bs"] for e in f] != ["4k", "64k", "512k", "1m"])' \
	"$tmp/yabs/body" && t_ok upload_yabs_fio_shape || t_fail upload_yabs_fio_shape "$(head -c 400 "$tmp/.yc")"
python3 "$H/truth.py" yabs "$tmp/ys.json" "$tmp/yabs/body" > "$tmp/.yt" 2>&1 && t_ok upload_yabs_fio_figures \
	|| t_fail upload_yabs_fio_figures "$(head -c 600 "$tmp/.yt")"
# --format json with --upload-format json changes no plan: no yabs pass, no note
( cd "$tmp/run" && "$VB" --quiet --only sysinfo,rand --dir "$tmp/yd" --size 16M --runtime 1 --ramp 0 \
	--upload "https://127.0.0.1:$PORT/up" --cacert "$CA" --output "$tmp/yj.json" ) >/dev/null 2>"$tmp/yj.err"
! grep -q 'yabs' "$tmp/yj.err" && t_json "$tmp/yj.json" '"rand_rw_64k" not in [x["name"] for x in j["rand"]["passes"]]' \
	&& t_ok upload_json_plan_unchanged || t_fail upload_json_plan_unchanged "$(head -c 300 "$tmp/yj.err")"
rm -rf "$tmp/yd" "$tmp"/run/*
PORT=$tls_port

# default name in the current directory when there is no --output
run default_name --upload "https://127.0.0.1:$PORT/up" --cacert "$CA"
f=$(saved default_name)
case $f in ./vpsbench-report-[0-9]*-[0-9]*.json) ok=1 ;; *) ok=0 ;; esac
if [ $RC -eq 0 ] && [ $ok = 1 ] && cmp -s "$tmp/run/$f" "$tmp/tls/body"; then t_ok default_report_name
else t_fail default_report_name "rc=$RC name=$f"; fi
rm -f "$tmp"/run/*

# SSL_CERT_FILE is honoured like --cacert
( export SSL_CERT_FILE=$CA; run ssl_cert_file --upload "https://127.0.0.1:$PORT/up" \
	--output "$tmp/env.json"; exit $RC ); RC=$?
[ $RC -eq 0 ] && t_ok ssl_cert_file_env || t_fail ssl_cert_file_env "rc=$RC"

# a 500 is retried (3 tries), then reported with exit 4
start_server s500 500 tls
run http500 --upload "https://127.0.0.1:$PORT/up" --cacert "$CA" --output "$tmp/r500.json"
if [ $RC -eq 4 ] && [ "$(count s500)" = 3 ] && grep -q 'HTTP 500: internal error: try later' "$tmp/http500.err" \
   && grep -q 'try 2 of 3' "$tmp/http500.err"; then t_ok retry_500_then_exit4
else t_fail retry_500_then_exit4 "rc=$RC tries=$(count s500)"; fi

# connection refused is retried too
run refused --upload "https://127.0.0.1:1/up" --cacert "$CA" --output "$tmp/ref.json"
if [ $RC -eq 4 ] && [ "$(grep -c 'try [12] of 3 failed' "$tmp/refused.err")" = 2 ]; then
	t_ok connect_error_retried; else t_fail connect_error_retried "rc=$RC"; fi

# a collector that never answers is cut off by --upload-timeout, not retried
start_server hang hang tls
t0=$(date +%s)
run hang --upload "https://127.0.0.1:$PORT/up" --cacert "$CA" --upload-timeout 2s --output "$tmp/h.json"
t1=$(date +%s)
if [ $RC -eq 4 ] && [ $((t1 - t0)) -lt 15 ] && [ "$(count hang)" = 1 ] && grep -qi 'timed out\|timeout' "$tmp/hang.err"; then
	t_ok hang_cut_by_timeout; else t_fail hang_cut_by_timeout "rc=$RC $((t1 - t0))s tries=$(count hang)"; fi

# SIGINT during the upload stops it promptly: sent once the collector holds
# the request (a fixed 1.5 s raced a loaded machine's start-up)
n0=$(count hang)
( cd "$tmp/run" && exec "$VB" --quiet --only sysinfo --upload "https://127.0.0.1:$PORT/up" \
	--cacert "$CA" --output "$tmp/hi.json" --upload-header "X-Token: $TOKEN" ) >"$tmp/hang_int.out" 2>"$tmp/hang_int.err" &
ipid=$!
for _ in $(seq 600); do [ "$(count hang)" -gt "$n0" ] && break; kill -0 $ipid 2>/dev/null || break; sleep 0.05; done
t0=$(date +%s)
kill -INT $ipid 2>/dev/null; wait $ipid
TOKEN_RUNS=$((TOKEN_RUNS + 1))
t1=$(date +%s)
cat "$tmp/hang_int.out" "$tmp/hang_int.err" >> "$tmp/all_output"
if grep -q 'failed: interrupted' "$tmp/hang_int.err" && [ $((t1 - t0)) -lt 4 ]; then
	t_ok sigint_stops_upload; else t_fail sigint_stops_upload "$((t1 - t0))s $(head -c 300 "$tmp/hang_int.err")"; fi

# redirects: to http refused (the http collector gets nothing); to https followed
start_server plain2 ok plain
start_server redir redirect-http tls --to-port "$PORT"
run redir_http --upload "https://127.0.0.1:$PORT/up" --cacert "$CA" --output "$tmp/rh.json"
if [ $RC -eq 4 ] && grep -q 'refused: only https' "$tmp/redir_http.err" && [ "$(count plain2)" = 0 ]; then
	t_ok redirect_to_http_refused; else t_fail redirect_to_http_refused "rc=$RC"; fi
start_server redok redirect-ok tls
run redir_ok --upload "https://127.0.0.1:$PORT/up" --cacert "$CA" --upload-header "X-Token: $TOKEN" \
	--output "$tmp/ro.json"
[ $RC -eq 0 ] && [ "$(count redok)" = 2 ] && t_ok redirect_to_https_followed \
	|| t_fail redirect_to_https_followed "rc=$RC hits=$(count redok)"
start_server redhost redirect-host tls
run redir_host --upload "https://127.0.0.1:$PORT/up" --cacert "$CA" --upload-header "X-Token: $TOKEN" \
	--output "$tmp/rx.json"
[ $RC -eq 4 ] && grep -q 'another host' "$tmp/redir_host.err" && [ "$(count redhost)" = 1 ] \
	&& t_ok cross_host_redirect_keeps_token || t_fail cross_host_redirect_keeps_token "rc=$RC"

# a worse exit code wins over 4: --require failing (3) and the upload failing
run worse --upload "https://127.0.0.1:1/" --cacert "$CA" --require 'rand_iops>=1' --output "$tmp/w.json"
[ $RC -eq 3 ] && t_ok exit3_wins_over_4 || t_fail exit3_wins_over_4 "rc=$RC"

# two URLs: both get it; one failing makes it exit 4
run two --upload "https://127.0.0.1:$(cat "$tmp/tls/port")/a" --upload "https://127.0.0.1:1/b" \
	--cacert "$CA" --output "$tmp/two.json"
[ $RC -eq 4 ] && grep -q '/a: HTTP 200' "$tmp/two.err" && t_ok two_urls_one_fails \
	|| t_fail two_urls_one_fails "rc=$RC"

# the header value is never printed, whatever happened
# (refusals, TLS failure, 500 retries, connection refused, timeout, SIGINT,
# redirects, two URLs), nor written into any saved report
if [ "$TOKEN_RUNS" -lt 17 ]; then  # 18 runs; the SSL_CERT_FILE one counts in its subshell
	t_fail token_never_shown "only $TOKEN_RUNS runs carried the token"
elif [ ! -s "$tmp/all_output" ]; then
	t_fail token_never_shown "no output collected"
elif grep -qF "$TOKEN" "$tmp/all_output"; then
	t_fail token_never_shown "$(grep -F "$TOKEN" "$tmp/all_output" | head -n 3)"
elif grep -rlF "$TOKEN" "$tmp"/*.json "$tmp/run" 2>/dev/null | grep -q .; then
	t_fail token_never_shown "in a saved report: $(grep -rlF "$TOKEN" "$tmp"/*.json "$tmp/run" | head -n 3)"
else
	t_ok "token_never_shown ($TOKEN_RUNS runs, every failure path)"
fi

t_summary upload
