# run-all: check (see tests/run-all.sh)
# smoke_contrib.sh — contrib/: the systemd unit passes `systemd-analyze verify`
# (its ExecStart pointed at the built binary, which must exist) and keeps its
# hardening; the Prometheus rules pass `promtool check rules` and their test
# cases `promtool test rules`. Each part skips when its tool is missing.
. tests/lib.sh
t_load_note
tmp=$(t_tmpdir); trap 'rm -rf "$tmp"' EXIT
UNIT=contrib/systemd/vpsbench-watch.service
RULES=contrib/prometheus/vpsbench-watch.rules.yml

if command -v systemd-analyze >/dev/null 2>&1; then
	bin=$(cd "$(dirname "$VPSBENCH")" && pwd)/$(basename "$VPSBENCH")
	sed "s|^ExecStart=/usr/local/bin/vpsbench|ExecStart=$bin|" "$UNIT" > "$tmp/vpsbench-watch.service"
	if out=$(systemd-analyze verify --man=no "$tmp/vpsbench-watch.service" 2>&1) && [ -z "$out" ]; then
		t_ok systemd_verify_clean
	else
		t_fail systemd_verify_clean "$(printf '%s' "$out" | head -c 400)"
	fi
	# the check itself sees a broken unit
	printf '[Service]\nExecStart=relative/path\nNoSuchKey=1\n' > "$tmp/broken.service"
	out=$(systemd-analyze verify --man=no "$tmp/broken.service" 2>&1)
	[ -n "$out" ] && t_ok systemd_verify_sees_errors || t_fail systemd_verify_sees_errors
	score=$(systemd-analyze security --offline=yes "$tmp/vpsbench-watch.service" 2>/dev/null |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	if [ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }'; then
		t_ok "systemd_exposure_low ($score)"
	else
		t_fail systemd_exposure_low "exposure '${score:-none}' (want <= 2.0)"
	fi
else
	t_skip systemd_verify_clean "systemd-analyze not installed"
fi
for k in 'ProtectSystem=strict' 'StateDirectory=vpsbench' 'ProtectHome=yes' 'PrivateTmp=yes' \
	'NoNewPrivileges=yes' 'CapabilityBoundingSet=$' 'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX$' \
	'SystemCallFilter=@system-service' 'MemoryDenyWriteExecute=yes' 'listen 127.0.0.1:9787'; do
	grep -q "$k" "$UNIT" || { t_fail systemd_hardening "no '$k'"; k=; break; }
done
[ -n "$k" ] && t_ok systemd_hardening

if command -v promtool >/dev/null 2>&1; then
	out=$(promtool check rules "$RULES" 2>&1) && t_ok promtool_check_rules \
		|| t_fail promtool_check_rules "$(printf '%s' "$out" | head -c 400)"
	out=$(cd contrib/prometheus && promtool test rules vpsbench-watch.rules.test.yml 2>&1) \
		&& t_ok promtool_test_rules || t_fail promtool_test_rules "$(printf '%s' "$out" | head -c 600)"
	# the test cases catch a wrong threshold: steal at 30% instead of 10% fails them
	mkdir "$tmp/p" && sed 's/vpsbench_watch_steal_ratio\[30m\]) > 0.10/vpsbench_watch_steal_ratio[30m]) > 0.30/' \
		"$RULES" > "$tmp/p/vpsbench-watch.rules.yml" && cp contrib/prometheus/vpsbench-watch.rules.test.yml "$tmp/p/"
	if ! grep -q '> 0.30' "$tmp/p/vpsbench-watch.rules.yml"; then
		t_fail promtool_tests_catch_a_mutant "the mutant did not apply"
	elif (cd "$tmp/p" && promtool test rules vpsbench-watch.rules.test.yml >/dev/null 2>&1); then
		t_fail promtool_tests_catch_a_mutant "a 30% steal threshold passed the tests"
	else
		t_ok promtool_tests_catch_a_mutant
	fi
	# and a stale alert that waits 8 hours instead of 6 (every round skipped since 2 h: fires at 8 h)
	sed 's/) > 6 \* 3600/) > 8 * 3600/' "$RULES" > "$tmp/p/vpsbench-watch.rules.yml"
	if ! grep -q '> 8 \* 3600' "$tmp/p/vpsbench-watch.rules.yml"; then
		t_fail promtool_tests_catch_a_stale_mutant "the mutant did not apply"
	elif (cd "$tmp/p" && promtool test rules vpsbench-watch.rules.test.yml >/dev/null 2>&1); then
		t_fail promtool_tests_catch_a_stale_mutant "an 8-hour stale threshold passed the tests"
	else
		t_ok promtool_tests_catch_a_stale_mutant
	fi
	for a in VpsbenchWatchDegraded VpsbenchWatchSteal VpsbenchWatchWakeupDelay VpsbenchWatchProbeFailures VpsbenchWatchProbesStale \
		VpsbenchWatchDown; do
		grep -q "alertname: $a" contrib/prometheus/vpsbench-watch.rules.test.yml || { t_fail "rule_tested_$a"; continue; }
		t_ok "rule_tested_$a"
	done
else
	t_skip promtool_check_rules "promtool not installed (Debian: prometheus)"
fi
t_summary contrib
