# smoke_layout.sh — the folder rules (README, "Architecture") hold on this
# tree, and scripts/check-layout.py notices each kind of breach when one is
# planted in a copy of the tree.
. tests/lib.sh
tmp=$(t_tmpdir); trap 'rm -rf "$tmp"' EXIT
check=scripts/check-layout.py

out=$(python3 "$check" . --objs build/rel 2>&1); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && t_ok layout_rules_hold || t_fail layout_rules_hold "rc=$rc $out"

# plant NAME FILE LINE EXPECT: a copy of the sources with LINE added to FILE
# must fail the check with a message containing EXPECT.
plant() {
	local name=$1 file=$2 line=$3 expect=$4 d="$tmp/$1"
	mkdir -p "$d"
	cp -r bench.c core modules grade report render tests "$d"/
	printf '%s\n' "$line" >> "$d/$file"
	out=$(python3 "$check" "$d" 2>&1); rc=$?
	if [ $rc -eq 1 ] && printf '%s' "$out" | grep -q "$file:.*$expect"; then t_ok "layout_catches_$name"
	else t_fail "layout_catches_$name" "rc=$rc $out"; fi
	rm -rf "$d"
}
plant module_includes_module modules/seq/seq.c '#include "modules/rand/rand.h"' 'never includes another module'
plant module_includes_render modules/rand/rand.c '#include "render/render.h"' 'only its own folder and core'
plant module_includes_report modules/sysinfo/sysinfo.c '#include "report/report.h"' 'only its own folder and core'
plant core_includes_module core/plan.c '#include "modules/seq/seq.h"' 'core includes no module'
plant core_includes_grade core/options.c '#include "grade/grade.h"' 'core includes no module'
plant render_includes_upload render/text/text.c '#include "report/upload.h"' 'render reads results only'
plant render_includes_private render/json/json_rand.c '#include "modules/rand/rand_job.h"' 'private header of module rand'
plant private_header_elsewhere grade/grade_metrics.c '#include "modules/rand/rand_job.h"' 'private header of module rand'
plant bare_include_elsewhere render/yabs.c '#include "seq.h"' 'not in render/'

# a render section that calls back into its dispatcher is a circle
if command -v nm > /dev/null && [ -f build/rel/render/json/json_rand.o ]; then
	d="$tmp/objs"; mkdir -p "$d"
	cp -r build/rel/render "$d/"
	printf 'char *render_json(const void *a, const void *b);\nvoid *back(void){return render_json(0,0);}\n' \
		| cc -x c -c -o "$d/back.o" -
	ld -r -o "$d/render/json/json_rand.o" build/rel/render/json/json_rand.o "$d/back.o"
	out=$(python3 "$check" . --objs "$d" 2>&1); rc=$?
	[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'circle: .*json_rand.c' \
		&& t_ok layout_catches_render_circle || t_fail layout_catches_render_circle "rc=$rc $out"
else
	t_fail layout_catches_render_circle "no nm or no build/rel objects"
fi
t_summary smoke_layout
