# run-all: check (see tests/run-all.sh)
# smoke_sysinfo.sh — `--only sysinfo` on this machine and on fixture trees:
# the JSON parses and holds the fields, the text fits in 80 columns; the
# oversell signs on fixtures (seen, seen absent, unknown) in JSON and text.
. tests/lib.sh
tmp=$(t_tmpdir); trap 'rm -rf "$tmp"' EXIT
fx=$PWD/tests/fixtures

# width of the widest line, in characters (the header holds UTF-8 dashes); a
# line that is one URL alone (a rule's source) may be wider: it is never broken
width() { python3 -c 'import sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8") if not (l.split() and len(l.split()) == 1 and l.split()[0].startswith("https://"))] or [0]))' "$1"; }

# check_json NAME FILE PYTHON-EXPR: the expression over d (the sysinfo object) is true
check_json() {
	if python3 - "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["sysinfo"]
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)
PY
	then t_ok "$1"; else t_fail "$1" "$3"; fi
}

# live system, with a --dir whose path is longer than a line
long="$tmp/a-directory-name-that-is-far-too-long-to-fit-into-one-eighty-column-line"
mkdir -p "$long"
"$VPSBENCH" --only sysinfo --json --quiet --dir "$long" > "$tmp/live.json" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && t_ok live_json_rc || t_fail live_json_rc "rc=$rc $(head -c 300 "$tmp/err")"
python3 -m json.tool "$tmp/live.json" > /dev/null && t_ok live_json_parses || t_fail live_json_parses
check_json live_json_fields "$tmp/live.json" \
	'all(k in d for k in ("cpu","mem","dirs","os","net","virt","hypervisor","uptime_s","load_avg"))
	 and all(k in d["cpu"] for k in ("model","cores_online","cores_usable","quota_cpus","freq_mhz","cache_bytes","aes","virt_flag"))
	 and all(k in d["mem"] for k in ("ram_total_bytes","ram_used_bytes","ram_available_bytes","swap_total_bytes","swap_used_bytes","cgroup_limit_bytes"))
	 and all(k in d["net"] for k in ("ipv4","ipv6","tcp_cc")) and len(d["load_avg"]) == 3'
check_json live_json_values "$tmp/live.json" \
	'd["cpu"]["cores_usable"] >= 1 and d["os"]["kernel"] and d["os"]["arch"]
	 and d["dirs"][0]["path"].endswith("one-eighty-column-line") and d["dirs"][0]["total_bytes"] > 0'
"$VPSBENCH" --only sysinfo --quiet --dir "$long" > "$tmp/live.txt" 2>&1; rc=$?
w=$(width "$tmp/live.txt")
[ $rc -eq 0 ] && [ "$w" -le 80 ] && t_ok live_text_80_columns || t_fail live_text_80_columns "rc=$rc width=$w"
grep -q '^ CPU Model  *: ' "$tmp/live.txt" && grep -q '^ Virtualization  *: ' "$tmp/live.txt" &&
	grep -q '^ IPv4/IPv6  *: ' "$tmp/live.txt" && t_ok live_text_fields || t_fail live_text_fields

# fixture trees: deterministic values
run_fx() { # NAME: writes $tmp/NAME.json and $tmp/NAME.txt
	VPSBENCH_ROOT="$fx/$1" "$VPSBENCH" --only sysinfo --json --quiet --dir / > "$tmp/$1.json" 2>&1 &&
	VPSBENCH_ROOT="$fx/$1" "$VPSBENCH" --only sysinfo --quiet --dir / > "$tmp/$1.txt" 2>&1
}
for s in kvm_vps docker_v2 lxc_lxcfs garbled arm64_nomodel mem_oversell no_sys; do
	if run_fx $s && python3 -m json.tool "$tmp/$s.json" > /dev/null; then t_ok "fx_${s}_runs"
	else t_fail "fx_${s}_runs" "$(head -c 300 "$tmp/$s.json")"; fi
	w=$(width "$tmp/$s.txt")
	[ "$w" -le 80 ] && t_ok "fx_${s}_80_columns" || t_fail "fx_${s}_80_columns" "width=$w"
done
check_json fx_kvm_values "$tmp/kvm_vps.json" \
	'd["virt"] == "kvm" and d["cpu"]["cores_online"] == 4 and d["mem"]["ram_total_bytes"] == 8140000*1024
	 and d["net"] == {**d["net"], "ipv4": True, "ipv6": True, "tcp_cc": "bbr"}
	 and d["dirs"][0]["fstype"] == "ext4" and d["dirs"][0]["total_bytes"] == 4096*20000000'
check_json fx_docker_values "$tmp/docker_v2.json" \
	'd["virt"] == "docker" and d["hypervisor"] == "kvm" and d["cpu"]["quota_cpus"] == 1.5
	 and d["mem"]["cgroup_limit_bytes"] == 536870912'
check_json fx_lxc_unknown_is_null "$tmp/lxc_lxcfs.json" \
	'd["virt"] == "lxc" and d["mem"]["ram_total_bytes"] is None and d["mem"]["swap_total_bytes"] is None'
check_json fx_garbled_all_null "$tmp/garbled.json" \
	'd["cpu"]["model"] is None and d["cpu"]["cores_online"] is None and d["uptime_s"] is None
	 and d["load_avg"] == [None, None, None] and d["virt"] is None and d["os"]["kernel"] is None'
grep -q '^ Total RAM  *: unknown$' "$tmp/lxc_lxcfs.txt" && t_ok fx_lxc_text_unknown ||
	t_fail fx_lxc_text_unknown
grep -q '^ CPU Model  *: ARM Neoverse-N1$' "$tmp/arm64_nomodel.txt" && t_ok fx_arm_text_model ||
	t_fail fx_arm_text_model
# oversell signs: flagged when seen, false only where seen absent, null when unknown
O='d["mem"]["oversell"]'
check_json fx_oversell_seen "$tmp/mem_oversell.json" \
	"$O[\"balloon\"] is True and $O[\"ksm_run\"] is True and $O[\"ksm_pages_sharing\"] == 4242
	 and $O[\"swap_used_bytes\"] == 512 << 20 and $O[\"psi_some_avg10\"] == 2.5 and $O[\"psi_full_avg10\"] == 0.5
	 and len($O[\"flags\"]) == 3 and 'KSM active: 4242 pages shared' in $O[\"flags\"][0]"
check_json fx_oversell_absent "$tmp/kvm_vps.json" \
	"$O[\"balloon\"] is False and $O[\"ksm_run\"] is False and $O[\"psi_some_avg10\"] == 0.1
	 and $O[\"flags\"] == ['swap in use: 94 MiB']"
check_json fx_oversell_unknown_is_null "$tmp/no_sys.json" \
	"$O[\"balloon\"] is None and $O[\"ksm_run\"] is None and $O[\"ksm_pages_sharing\"] is None
	 and $O[\"psi_some_avg10\"] is None and $O[\"flags\"] == []"
grep -q '^ Balloon Driver  *: virtio_balloon loaded$' "$tmp/mem_oversell.txt" &&
	grep -q '^ KSM  *: active, 4242 pages shared$' "$tmp/mem_oversell.txt" &&
	grep -q '^ Memory Pressure  *: some 2.50%, full 0.50% (avg10)$' "$tmp/mem_oversell.txt" &&
	grep -q '^ Guest Memory  *: KSM active' "$tmp/mem_oversell.txt" &&
	grep -q '^ Balloon Driver  *: unknown$' "$tmp/no_sys.txt" &&
	grep -q '^ Guest Memory  *: none seen; unknown: KSM, pressure$' "$tmp/no_sys.txt" &&
	grep -q '^ Guest Memory  *: unknown$' "$tmp/garbled.txt" &&
	grep -q '^ Guest Memory  *: swap in use: 94 MiB$' "$tmp/kvm_vps.txt" &&
	t_ok fx_oversell_text || t_fail fx_oversell_text
VPSBENCH_ROOT="$fx/mem_oversell" "$VPSBENCH" --only sysinfo --quiet --dir / --html "$tmp/o.html" > /dev/null 2>&1
grep -q '<tr><th>Guest Memory</th><td>KSM active: 4242 pages shared (memory deduplicated); swap in use: 512 MiB; memory pressure: some avg10 2.50%</td></tr>' "$tmp/o.html" &&
	grep -q '<tr><th>KSM</th><td>active, 4242 pages shared</td></tr>' "$tmp/o.html" &&
	t_ok fx_oversell_html || t_fail fx_oversell_html
if python3 -c 'import jsonschema' 2>/dev/null; then
	bad=""
	for s in mem_oversell kvm_vps no_sys; do
		python3 - schema/report.schema.json "$tmp/$s.json" <<'PY' || bad="$bad $s"
import json, sys
from jsonschema import Draft202012Validator as V
errs = list(V(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
for e in errs[:3]:
    print(list(e.path), e.message[:200])
sys.exit(1 if errs else 0)
PY
	done
	[ -z "$bad" ] && t_ok fx_oversell_schema || t_fail fx_oversell_schema "$bad"
else
	t_skip fx_oversell_schema "python3-jsonschema not installed"
fi
t_summary sysinfo
