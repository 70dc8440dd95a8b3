# smoke_layout.sh — the folder rules (README, "Architecture") hold on this
# tree, and scripts/check-layout.py notices each kind of breach when one is
# planted in a copy of the tree.
. tests/lib.sh
tmp=$(t_tmpdir); trap 'wait; rm -rf "$tmp"' EXIT
check=scripts/check-layout.py

# plant NAME FILE LINE EXPECT: a copy of the sources with LINE added to FILE
# must fail the check with a message containing EXPECT. The copy is a tree
# of symbolic links to this tree's files (the check follows them as it reads
# files), FILE alone a real copy. plants_check then runs the check's main()
# on every copy in one python (its start is most of a check's cost; the
# argument, output and exit code are the command's), in the background,
# output and rc in files; plant_results judges them in turn.
PLANTS=()
plant() {
	local name=$1 file=$2 line=$3 d="$tmp/$1"
	PLANTS+=("$name" "$file" "$4")
	mkdir -p "$d"
	cp -rs "$PWD"/bench.c "$PWD"/core "$PWD"/modules "$PWD"/grade "$PWD"/report "$PWD"/render \
		"$PWD"/tests "$d"/ &&
	rm "$d/$file" && cp "$file" "$d/$file" &&
	printf '%s\n' "$line" >> "$d/$file"
}
plants_check() { # NAME...
	python3 - "$check" "$tmp" "$@" <<'PY' > "$tmp/plants.log" 2>&1 &
import contextlib, importlib.util, io, sys, traceback
spec = importlib.util.spec_from_file_location("check_layout", sys.argv[1])
cl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cl)
for name in sys.argv[3:]:
    d = sys.argv[2] + "/" + name
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            rc = cl.main([d])  # as `check-layout.py DIR`: sys.exit(main(argv))
        except Exception:
            traceback.print_exc()
            rc = "exception"
    open(d + ".out", "w").write(out.getvalue())
    open(d + ".rc", "w").write("%s\n" % rc)
PY
	plants_pid=$!
}
plant_results() {
	local name file expect out rc
	wait "$plants_pid"
	set -- "${PLANTS[@]}"
	while [ $# -ge 3 ]; do
		name=$1 file=$2 expect=$3; shift 3
		out=$(cat "$tmp/$name.out" 2>/dev/null); rc=$(cat "$tmp/$name.rc" 2>/dev/null)
		if [ "$rc" = 1 ] && printf '%s' "$out" | grep -q "$file:.*$expect"; then t_ok "layout_catches_$name"
		else t_fail "layout_catches_$name" "rc=$rc $out $(head -c 600 "$tmp/plants.log")"; fi
		rm -rf "${tmp:?}/$name"
	done
}
plant module_includes_module modules/seq/seq.c '#include "modules/rand/rand.h"' 'never includes another module'
plant module_includes_render modules/rand/rand.c '#include "render/render.h"' 'only its own folder and core'
plant module_includes_report modules/sysinfo/sysinfo.c '#include "report/report.h"' 'only its own folder and core'
plant core_includes_module core/plan.c '#include "modules/seq/seq.h"' 'core includes no module'
plant core_includes_grade core/options.c '#include "grade/grade.h"' 'core includes no module'
plant render_includes_upload render/text/text.c '#include "report/upload.h"' 'render reads results only'
plant render_includes_private render/json/json_rand.c '#include "modules/rand/rand_job.h"' 'private header of module rand'
plant private_header_elsewhere grade/grade_collect_disk.c '#include "modules/rand/rand_job.h"' 'private header of module rand'
plant bare_include_elsewhere render/yabs.c '#include "seq.h"' 'not in render/'

set --; for ((i = 0; i < ${#PLANTS[@]}; i += 3)); do set -- "$@" "${PLANTS[$i]}"; done
plants_check "$@"

# meanwhile: the rules hold on this tree (with the call graph of all of
# build/rel/render: one nm per object, the slow part), in the background too
python3 "$check" . --objs build/rel > "$tmp/rules.out" 2>&1 &
rules_pid=$!

# a render section that calls back into its dispatcher is a circle: the
# json format's objects (its dispatcher render_json and its sections), one
# section linked with a call back to render_json
if command -v nm > /dev/null && [ -f build/rel/render/json/json_rand.o ]; then
	d="$tmp/objs"; mkdir -p "$d/render"
	cp -r build/rel/render/json "$d/render/"
	printf 'char *render_json(const void *a, const void *b);\nvoid *back(void){return render_json(0,0);}\n' \
		| cc -x c -c -o "$d/back.o" -
	ld -r -o "$d/render/json/json_rand.o" build/rel/render/json/json_rand.o "$d/back.o"
	out=$(python3 "$check" . --objs "$d" 2>&1); rc=$?
	[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'circle: .*json_rand.c' \
		&& t_ok layout_catches_render_circle || t_fail layout_catches_render_circle "rc=$rc $out"
else
	t_fail layout_catches_render_circle "no nm or no build/rel objects"
fi
wait "$rules_pid"; rc=$?; out=$(cat "$tmp/rules.out")
[ $rc -eq 0 ] && [ -z "$out" ] && t_ok layout_rules_hold || t_fail layout_rules_hold "rc=$rc $out"
plant_results
t_summary smoke_layout
