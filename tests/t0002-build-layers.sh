#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t0002-build-layers.sh - the tree is the architecture: src/ holds one folder
# a layer, and a file includes only headers of its own layer or of the
# layers below it; no include circle between modules; no file of src/ over
# 1,000 lines.
#
# The order, top down, is written here and nowhere else:
#   cli      the command line, progress, the run summary (what the user touches)
#   campaign kernels compared across reboots: plan, journal, boots, analysis
#   run      the suite, compare, the harness, the workload, the probe, env
#   report   the report model, its printers, the plot
#   loads    the loads (loads/, at the top of the tree), their contract, run types
#   results  records, the store, histograms, statistics
#   lib      processes, files, the tar codec, the page cache, swap, utilities
# A header is included by its path under src/ (or the top, for loads/):
# #include "results/record.h".  A module is a .c file and the .h of the same
# name; a circle is a module that reaches itself through the includes.
. "$TOP_SRCDIR/tests/lib.sh"

LAYERS="cli campaign run report loads results lib"
top=$TOP_SRCDIR

layer_dir() {	# layer_dir LAYER: its folder
	if [ "$1" = loads ]; then echo "$top/loads"; else echo "$top/src/$1"; fi
}

# every folder of src/ is a layer, and every layer has its folder and says
# what lives there
for d in "$top"/src/*/; do
	d=$(basename "$d")
	ok "src/$d is a layer of the order" sh -c 'case " $1 " in *" $2 "*) ;; *) false ;; esac' sh "$LAYERS" "$d"
done
ok "no source file directly in src/ (each is in its layer's folder)" \
	sh -c '! ls "$1"/src/*.c "$1"/src/*.h 2>/dev/null | grep -q .' sh "$top"
for l in $LAYERS; do
	ok "layer $l has its folder, with a README.md that says what lives there" \
		test -s "$(layer_dir "$l")/README.md"
done

# the includes of every source file of the layers: "FILE LAYER HEADER"
: >includes
for l in $LAYERS; do
	for f in "$(layer_dir "$l")"/*.c "$(layer_dir "$l")"/*.h; do
		[ -f "$f" ] || continue
		rel=${f#"$top"/}
		sed -n 's/^[ 	]*#[ 	]*include[ 	]*"\([^"]*\)".*/\1/p' "$f" |
			while read -r h; do echo "$rel $l $h"; done >>includes
	done
done
ok "the includes were read" test "$(wc -l <includes)" -gt 100

# each layer's rank is its place in LAYERS; an include of a header of a
# layer ranked before (above) the file's own is the fault this test is for
awk -v layers="$LAYERS" '
BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) rank[L[i]] = i }
$3 == "config.h" { next }	# configure'"'"'s, below everything
{
	split($3, p, "/")
	if (!(p[1] in rank) || p[2] == "") { print $1 ": #include \"" $3 "\" names no layer" > "unnamed"; next }
	if (rank[p[1]] < rank[$2])
		print $1 " (" $2 ") includes " $3 " (" p[1] ", a layer above)" > "upward"
}' includes
ok "every include names the layer of its header (\"layer/name.h\")" \
	sh -c '! test -s unnamed || { sed "s/^/# /" unnamed; false; }'
ok "no file includes a header of a layer above its own" \
	sh -c '! test -s upward || { sed "s/^/# /" upward; false; }'
ok "every included header exists" sh -c '
	awk "\$3 != \"config.h\" { print \$3 }" includes | sort -u | while read -r h; do
		[ -f "$1/src/$h" ] || [ -f "$1/$h" ] || { echo "# no such header: $h"; exit 1; }
	done' sh "$top"

# circles: the module graph (run/suite.c and run/suite.h are module
# run/suite) through tsort, which says "input contains a loop" at a circle
awk '$3 != "config.h" {
	m = $1; sub(/^src\//, "", m); sub(/\.[ch]$/, "", m)
	h = $3; sub(/\.h$/, "", h)
	print m, h
}' includes >edges
ok "the module graph has edges" test "$(wc -l <edges)" -gt 100
tsort edges >order 2>loops
ok "no include circle between modules" sh -c '! test -s loops || { sed "s/^/# /" loops; false; }'

# long files: none of src/ over 1,000 lines
: >long
for f in "$top"/src/*/*.c "$top"/src/*/*.h "$top"/loads/*.c "$top"/loads/*.h; do
	[ -f "$f" ] || continue
	n=$(wc -l <"$f")
	[ "$n" -le 1000 ] || echo "${f#"$top"/}: $n lines" >>long
done
ok "no source file over 1,000 lines" sh -c '! test -s long || { sed "s/^/# /" long; false; }'

done_testing
