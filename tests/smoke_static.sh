# run-all: last (see tests/run-all.sh): CI links the static binary just before
# smoke_static.sh — the static binary (make static) is portable: it is
# fully static, and inside an empty chroot that holds only the binary, CA
# files and mounts of /proc and /sys (no /dev, no libc, no /etc/hosts) it
# runs --only sysinfo, a short seq+rand run (io_uring and libaio) in a
# directory inside the chroot, and uploads over HTTPS to local servers:
# TLS 1.2 and TLS 1.3 work, a certificate for 127.0.0.1 with an IP SAN
# verifies, an untrusted CA or a certificate without the IP SAN is an
# error (exit 4), and the CA bundle is found at run time (SSL_CERT_FILE,
# then the distro path). Root only; skips when the binary is not built.
. tests/lib.sh
BIN=${VPSBENCH_STATIC:-./vpsbench-static}
if [ ! -x "$BIN" ]; then
	t_skip static_binary "$BIN not built (make static)"; t_summary static; exit 0
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

# fully static: no INTERP, no dynamic section, within the size budget
out=$(scripts/static-check.sh "$BIN" 2>&1) && t_ok static_no_interp_no_dynamic || t_fail static_no_interp_no_dynamic "$out"
if command -v file >/dev/null 2>&1; then
	file "$BIN" | grep -q 'statically linked' && t_ok file_says_static || t_fail file_says_static "$(file "$BIN")"
else
	t_skip file_says_static "no file(1)"
fi
ver=$("$BIN" --version) && [ "$ver" = "vpsbench $(sed -n 's/^VERSION *:= *//p' Makefile)" ] &&
	t_ok static_version || t_fail static_version "$ver"

if ! t_is_root; then
	t_skip empty_chroot "needs root (chroot, mounts)"; t_summary static; exit 0
fi
T=$(t_tmpdir)
C=$T/root
SRV_PIDS=''
cleanup() {
	local p
	for p in $SRV_PIDS; do kill "$p" 2>/dev/null; done
	t_umount_below "$T"
	rm -rf "$T"
}
trap cleanup EXIT
mkdir -p "$C/proc" "$C/sys" "$C/data" "$C/etc/ssl/certs"
cp "$BIN" "$C/vpsbench"
if ! mount -t proc proc "$C/proc" || ! mount -t sysfs sysfs "$C/sys"; then
	t_skip empty_chroot "cannot mount proc/sysfs here"; t_summary static; exit 0
fi
# in the chroot: exit code in $T/rc, stdout $T/out, stderr $T/err
# with an empty environment (CERT_FILE=F: only SSL_CERT_FILE=F)
TIMEOUT=$(command -v timeout) CHROOT=$(command -v chroot)
inchroot() {
	env -i ${CERT_FILE:+SSL_CERT_FILE=$CERT_FILE} "$TIMEOUT" 120 "$CHROOT" "$C" "$@" >"$T/out" 2>"$T/err"
	echo $? > "$T/rc"
}
rc() { cat "$T/rc"; }
# the chroot really is empty: no /dev, no libc, no shell
[ ! -e "$C/dev" ] && [ ! -e "$C/lib" ] && [ ! -e "$C/bin" ] && [ "$(ls "$C" | wc -l)" -eq 5 ] &&
	t_ok chroot_is_empty || t_fail chroot_is_empty "$(ls "$C")"

inchroot /vpsbench --only sysinfo --format json --quiet
if [ "$(rc)" -eq 0 ] && t_json "$T/out" 'j["schema"] == "vpsbench.report/1"' \
	'j["modules"]["sysinfo"]["status"] == "ok"' 'j["sysinfo"]["cpu"]["cores_online"] >= 1' \
	'j["sysinfo"]["mem"]["ram_total_bytes"] > 0' 'j["sysinfo"]["os"]["kernel"]'; then t_ok chroot_sysinfo
else t_fail chroot_sysinfo "rc=$(rc) $(head -c 400 "$T/err") $(head -c 400 "$T/out")"; fi

# short seq + rand in a directory inside the chroot, each engine
SHORT="--dir /data --seq-runs 1 --seq-size 8M --size 16M --runtime 1 --ramp 0 --jobs 1 --format json --quiet"
for eng in io_uring libaio; do
	# shellcheck disable=SC2086
	inchroot /vpsbench --only seq,rand --engine "$eng" $SHORT
	if [ "$(rc)" -eq 0 ] && t_json "$T/out" 'j["modules"]["seq"]["status"] == "ok"' \
		'j["modules"]["rand"]["status"] == "ok"' \
		"len(j['rand']['passes']) >= 1" \
		"all(p['engine'] == '$eng' and p['status'] == 'ok' for p in j['rand']['passes'])" \
		"all(p['read']['iops'] > 0 for p in j['rand']['passes'])" \
		"j['seq']['write']['avg_mbps'] > 0" &&
	   [ -z "$(ls -A "$C/data")" ]; then t_ok "chroot_seq_rand_$eng"
	else t_fail "chroot_seq_rand_$eng" "rc=$(rc) $(head -c 400 "$T/err")"; fi
done

# --- HTTPS upload to local servers ---
if ! command -v python3 >/dev/null 2>&1 || ! command -v openssl >/dev/null 2>&1; then
	t_skip chroot_upload "needs python3 and openssl"; t_summary static; exit 0
fi
if ! "$BIN" --help 2>&1 | grep -q -- '--upload URL'; then
	t_skip chroot_upload "this build has no --upload"; t_summary static; exit 0
fi
(
	cd "$T" || exit 1
	o() { openssl "$@" >/dev/null 2>&1; }
	o req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=vpsbench-test-ca -keyout ca.key -out ca.pem \
		-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign &&
	o req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=vpsbench-other-ca -keyout other.key -out other.pem \
		-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign &&
	for leaf in ip:IP:127.0.0.1 dns:DNS:localhost; do
		n=${leaf%%:*}
		o req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 \
			-keyout "$n.key" -out "$n.csr" &&
		printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' \
			"${leaf#*:}" > "$n.ext" &&
		o x509 -req -in "$n.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
			-extfile "$n.ext" -out "$n.pem" || exit 1
	done
) || { t_fail make_certs; t_summary static; exit 1; }
cat > "$T/srv.py" <<'EOF'
# POST sink: stores the body and the negotiated TLS version.
import http.server, os, ssl, sys
cert, key, tls, portfile, sink = sys.argv[1:6]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(sink, "ab") as f: f.write(body)
        with open(sink + ".tls", "a") as f: f.write(self.connection.version() + "\n")
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
v = {"1.2": ssl.TLSVersion.TLSv1_2, "1.3": ssl.TLSVersion.TLSv1_3}[tls]
ctx.minimum_version = ctx.maximum_version = v
ctx.load_cert_chain(cert, key)
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
open(portfile + ".tmp", "w").write(str(srv.server_address[1])); os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
EOF
# serve NAME CERT TLS: starts a server, sets PORT_NAME
serve() {
	python3 "$T/srv.py" "$T/$2.pem" "$T/$2.key" "$3" "$T/$1.port" "$T/$1.body" & SRV_PIDS="$SRV_PIDS $!"
}
serve t13 ip 1.3; serve t12 ip 1.2; serve noip dns 1.3
for n in t13 t12 noip; do
	for _ in $(seq 50); do [ -s "$T/$n.port" ] && break; sleep 0.1; done
done
P13=$(cat "$T/t13.port") P12=$(cat "$T/t12.port") PNOIP=$(cat "$T/noip.port")
cp "$T/ca.pem" "$C/ca.pem"; cp "$T/other.pem" "$C/other.pem"
UP="--only sysinfo --quiet --format json"
# upload NAME PORT ARGS...: runs the upload in the chroot (the report is
# saved locally first: a fresh --output file each time)
NUP=0
upload() {
	local n=$1 port=$2; shift 2
	rm -f "$T/$n.body" "$T/$n.body.tls"
	NUP=$((NUP + 1))
	# shellcheck disable=SC2086
	inchroot /vpsbench $UP --output "/report-$NUP.json" --upload "https://127.0.0.1:$port/r" "$@"
}
posted() { # NAME TLSVERSION: the server got one report over that version
	t_json "$T/$1.body" 'j["schema"] == "vpsbench.report/1"' && [ "$(cat "$T/$1.body.tls")" = "$2" ]
}
upload t13 "$P13" --cacert /ca.pem
[ "$(rc)" -eq 0 ] && posted t13 TLSv1.3 && t_ok upload_tls13_ip_san || t_fail upload_tls13_ip_san "rc=$(rc) $(cat "$T/err")"
upload t12 "$P12" --cacert /ca.pem
[ "$(rc)" -eq 0 ] && posted t12 TLSv1.2 && t_ok upload_tls12 || t_fail upload_tls12 "rc=$(rc) $(cat "$T/err")"
upload t13 "$P13" --cacert /other.pem
[ "$(rc)" -eq 4 ] && [ ! -e "$T/t13.body" ] && grep -qi 'certificate' "$T/err" &&
	t_ok upload_untrusted_ca_fails || t_fail upload_untrusted_ca_fails "rc=$(rc) $(cat "$T/err")"
upload noip "$PNOIP" --cacert /ca.pem
[ "$(rc)" -eq 4 ] && [ ! -e "$T/noip.body" ] && grep -qi 'certificate\|subject\|name' "$T/err" &&
	t_ok upload_no_ip_san_fails || t_fail upload_no_ip_san_fails "rc=$(rc) $(cat "$T/err")"
# run-time CA lookup: no CA file at all is an error; SSL_CERT_FILE; then
# the Debian path, with the whole system bundle (+ the test CA) parsed
upload t13 "$P13"
[ "$(rc)" -ne 0 ] && [ ! -e "$T/t13.body" ] && grep -q 'no CA certificates found' "$T/err" && t_ok upload_no_ca_fails || t_fail upload_no_ca_fails "rc=$(rc) $(cat "$T/err")"
CERT_FILE=/ca.pem upload t13 "$P13"
[ "$(rc)" -eq 0 ] && posted t13 TLSv1.3 && t_ok upload_ssl_cert_file || t_fail upload_ssl_cert_file "rc=$(rc) $(cat "$T/err")"
if [ -s /etc/ssl/certs/ca-certificates.crt ]; then
	cat /etc/ssl/certs/ca-certificates.crt "$T/ca.pem" > "$C/etc/ssl/certs/ca-certificates.crt"
	upload t12 "$P12"
	[ "$(rc)" -eq 0 ] && posted t12 TLSv1.2 && t_ok upload_distro_bundle || t_fail upload_distro_bundle "rc=$(rc) $(cat "$T/err")"
	# the real bundle alone does not trust the test CA
	cp /etc/ssl/certs/ca-certificates.crt "$C/etc/ssl/certs/ca-certificates.crt"
	upload t12 "$P12"
	[ "$(rc)" -eq 4 ] && [ ! -e "$T/t12.body" ] && grep -qi 'certificate' "$T/err" && t_ok upload_distro_bundle_untrusted ||
		t_fail upload_distro_bundle_untrusted "rc=$(rc) $(cat "$T/err")"
else
	t_skip upload_distro_bundle "no /etc/ssl/certs/ca-certificates.crt (ca-certificates)"
fi
t_umount_checked_below "$T"
t_summary static
