# smoke_progress.sh — the live status line: on a pseudo-terminal it shows
# percent and ETA, at most 4 redraws a second, and is cleared before the
# report; through a pipe there is no escape code at all, with or without
# --no-color / NO_COLOR; --quiet prints nothing on stderr.
. tests/lib.sh
tmp=$(t_tmpdir); trap 'rm -rf "$tmp"' EXIT
bin=$(cd "$(dirname "$VPSBENCH")" && pwd)/$(basename "$VPSBENCH")
# RUN with the directory of its own: every run below goes at the same time
# (each in $tmp/d.NAME), then each is checked
RUN="--only seq,rand --seq-size 64M --seq-runs 1 --size 16M --ramp 0"
# mkd NAME: the directory of run NAME, made
mkd() { mkdir -p "$tmp/d.$1"; echo "$tmp/d.$1"; }
have_script=0; command -v script >/dev/null && have_script=1
if [ $have_script = 1 ]; then
	# stdout and stderr both on the terminal: the report must come after the clear
	script -q -c "$bin $RUN --dir $(mkd pty) --runtime 2s --seq-size 256M" /dev/null >"$tmp/pty" 2>&1 </dev/null &
	pty_pid=$!
	# on a terminal, but colors off: status line yes, SGR color codes no
	script -q -c "$bin $RUN --dir $(mkd nc1) --runtime 1s --no-color" /dev/null >"$tmp/nc.--no-color" 2>&1 </dev/null &
	nc_pids=("$!")
	script -q -c "env NO_COLOR=1 $bin $RUN --dir $(mkd nc2) --runtime 1s" /dev/null >"$tmp/nc.NO_COLOR=1" 2>&1 </dev/null &
	nc_pids+=("$!")
	# --quiet on a terminal: the report only
	script -q -e -c "$bin $RUN --dir $(mkd q) --runtime 1s --quiet --no-color" /dev/null >"$tmp/q" 2>&1 </dev/null &
	q_pid=$!
fi
# through a pipe (rc to $tmp/pipe.N.rc)
( "$VPSBENCH" $RUN --dir "$(mkd p1)" --runtime 1s 2>&1 | cat >"$tmp/pipe.1"; echo "${PIPESTATUS[0]}" > "$tmp/pipe.1.rc" ) &
pipe_pids=("$!")
( "$VPSBENCH" $RUN --dir "$(mkd p2)" --runtime 1s --no-color 2>&1 | cat >"$tmp/pipe.2"; echo "${PIPESTATUS[0]}" > "$tmp/pipe.2.rc" ) &
pipe_pids+=("$!")
( NO_COLOR=1 "$VPSBENCH" $RUN --dir "$(mkd p3)" --runtime 1s 2>&1 | cat >"$tmp/pipe.3"; echo "${PIPESTATUS[0]}" > "$tmp/pipe.3.rc" ) &
pipe_pids+=("$!")
# --quiet
"$VPSBENCH" $RUN --dir "$(mkd quiet)" --runtime 1s --quiet >"$tmp/out" 2>"$tmp/err" &
quiet_pid=$!

if [ $have_script = 0 ]; then
	t_skip progress_pty "script (util-linux) not installed"
else
	# stdout and stderr both on the terminal: the report must come after the clear
	wait "$pty_pid"; rc=$?
	python3 - "$tmp/pty" >"$tmp/py" 2>&1 <<'EOF'
import re, sys
out = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
fails = []
# a status line: redrawn in place (\r ESC[2K), with a percent and the ETA
status = [m.start() for m in re.finditer(r"\r\x1b\[2K[^\r\n]*%\][^\r\n]*\[eta \d\dm:\d\ds, total \d\dm:\d\ds\]", out)]
head = out.find(" ------")  # the report's first rule
if not status:
    fails.append("no status line with percent and eta")
if head < 0:
    fails.append("no report")
elif status and status[-1] > head:
    fails.append("a status line after the report started")
else:
    last = status[-1] if status else 0
    between = out[last:head]
    # the last status line is cleared before anything else is printed
    m = re.search(r"\[eta [^\]]*\]", between)
    rest = between[m.end():] if m else between
    if "\x1b[2K" not in rest[:8] and not re.match(r"\r +\r", rest):
        fails.append("last status line not cleared: %r" % rest[:40])
# at most 4 redraws a second per pass
for m in re.finditer(r"vpsbench: (?:\x1b\[[0-9;]*m)?rand(?:\x1b\[[0-9;]*m)?: (randrw-4k-qd64|randread-4k-qd1) in [^:]*: done in ([0-9.]+) s", out):
    name, secs = m.group(1), float(m.group(2))
    n = len(re.findall(r"\x1b\[2K(?:\x1b\[[0-9;]*m)?rand(?:\x1b\[[0-9;]*m)? " + name + r"[^\r\n]*\[eta", out))
    if n > 4 * secs + 1 or n < 2:
        fails.append("%s: %d redraws in %.1f s" % (name, n, secs))
    print("%s: %d redraws in %.1f s" % (name, n, secs))
# live rates come from the counters the job threads publish
if not re.search(r"rand(?:\x1b\[[0-9;]*m)? randread-4k-qd1[^\r\n]*\](?:\[r=[0-9.]+[KMG]?iB/s\])?\[r=[0-9.]+k? IOPS\]", out):
    fails.append("no live read rate in the randread status line")
if not re.search(r"seq(?:\x1b\[[0-9;]*m)? [^\r\n]*\[[rw]=[0-9.]+[kMG]?B/s\]", out):
    fails.append("no live rate in a seq status line")
if not re.search(r"\x1b\[1;36mrand", out):
    fails.append("no color on a terminal")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
EOF
	py=$?
	if [ $rc -eq 0 ] && [ $py -eq 0 ]; then t_ok progress_pty "$(tr '\n' ' ' < "$tmp/py")"
	else t_fail progress_pty "rc=$rc $(tr '\n' ' ' < "$tmp/py" | head -c 400)"; fi

	# on a terminal, but colors off: status line yes, SGR color codes no
	wait "${nc_pids[@]}"
	for how in "--no-color" "NO_COLOR=1"; do
		cp "$tmp/nc.$how" "$tmp/nc"
		if grep -q 'eta' "$tmp/nc" && ! grep -qP '\x1b\[[0-9;]*m' "$tmp/nc"; then
			t_ok "pty_no_color $how"
		else
			t_fail "pty_no_color $how" "$(grep -c 'eta' "$tmp/nc") eta lines, $(grep -cP '\x1b\[[0-9;]*m' "$tmp/nc") with colors"
		fi
	done

	# --quiet on a terminal: the report only
	wait "$q_pid"; rc=$?
	if [ $rc -eq 0 ] && grep -q 'Random I/O' "$tmp/q" && ! grep -q 'eta\|vpsbench: rand' "$tmp/q" && ! grep -qP '\x1b' "$tmp/q"; then
		t_ok pty_quiet
	else
		t_fail pty_quiet "rc=$rc $(head -c 200 "$tmp/q" | cat -v)"
	fi
fi

# through a pipe: plain lines only, no escape code at all
wait "${pipe_pids[@]}"
k=0
for how in "" "--no-color" "NO_COLOR=1"; do
	k=$((k + 1))
	cp "$tmp/pipe.$k" "$tmp/pipe"; rc=$(cat "$tmp/pipe.$k.rc")
	starts=$(grep -c '^vpsbench: [a-z]*: .* \.\.\.$' "$tmp/pipe")
	ends=$(grep -c '^vpsbench: [a-z]*: .* done ([0-9.]* s)$' "$tmp/pipe")
	# seq: 1 write run + read; rand: layout + 2 passes
	if [ $rc -eq 0 ] && ! grep -qP '\x1b' "$tmp/pipe" && [ "$starts" -eq 5 ] && [ "$ends" -eq 5 ] && \
	   grep -q 'Random I/O' "$tmp/pipe"; then
		t_ok "pipe_plain ${how:-default}"
	else
		t_fail "pipe_plain ${how:-default}" "rc=$rc $(grep -cP '\x1b' "$tmp/pipe") lines with ESC, $starts starts, $ends ends"
	fi
done

# --quiet: nothing on stderr
wait "$quiet_pid"; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q 'Random I/O' "$tmp/out"; then t_ok quiet_silent
else t_fail quiet_silent "rc=$rc $(head -c 200 "$tmp/err")"; fi
left=$(cd "$tmp" && ls -A d.*/)
[ -z "$(cd "$tmp" && find d.* -mindepth 1)" ] && t_ok no_test_files_left || t_fail no_test_files_left "$left"
t_summary progress
