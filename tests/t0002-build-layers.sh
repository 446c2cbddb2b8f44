#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t0002-build-layers.sh - the tree is the architecture: src/ holds one folder
# a layer, and a file includes only headers of its own layer or of the
# layers below it; no include circle between modules; no file of src/ over
# 1,000 lines; no function declared in a header of one layer and defined
# in a file of a layer above it (a dependency upward at link time, which no
# include shows).
#
# The order, top down, is written here and nowhere else:
#   cli      the command line, progress, the run summary (what the user touches)
#   campaign kernels compared across reboots: plan, journal, boots, analysis
#   run      the suite, compare, the harness, the probe, env
#   report   the report model, its printers, the plot
#   loads    the loads (loads/, at the top of the tree), their contract, run types
#   workload the build every run times, and the builtin tree's generator
#   results  records, the store, histograms, statistics
#   lib      processes, files, the tar codec, the page cache, swap, utilities
# A header is included by its path under src/ (or the top, for loads/):
# #include "results/record.h".  A module is a .c file and the .h of the same
# name; a circle is a module that reaches itself through the includes.
. "$TOP_SRCDIR/tests/lib.sh"

LAYERS="cli campaign run report loads workload results lib"
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

# the includes of every source file of the layers: "FILE LAYER HEADER";
# the files themselves: "FILE LAYER"
: >includes
: >files
for l in $LAYERS; do
	for f in "$(layer_dir "$l")"/*.c "$(layer_dir "$l")"/*.h; do
		[ -f "$f" ] || continue
		rel=${f#"$top"/}
		echo "$rel $l" >>files
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

# the functions each file declares (a header) or defines (a .c file) at
# file scope, static ones left out: "decl NAME FILE" and "def NAME FILE".
# Comments, strings, character constants and preprocessor lines are
# skipped; what is inside braces is not at file scope.
cat >functions.awk <<'EOF'
function flush_stmt(end,    s, name) {
	s = stmt
	stmt = ""
	gsub(/[ \t]+/, " ", s)
	sub(/^ /, "", s)
	if (s ~ /^(static|typedef)[ (]/ || s !~ /\(/)
		return
	if (end == "{" && (FILENAME !~ /\.c$/ || s ~ /=/))
		return	# a header's static inline, an initializer
	if (end == ";" && FILENAME !~ /\.h$/)
		return
	name = s
	sub(/[ ]*\(.*/, "", name)	# up to the first (
	if (name !~ /[A-Za-z_][A-Za-z0-9_]*$/ || s ~ /^[^(]*\([ ]*\*/)
		return	# a pointer to a function: no function's name
	sub(/.*[^A-Za-z0-9_]/, "", name)
	print (end == "{" ? "def" : "decl"), name, FILENAME
}
FNR == 1 { depth = 0; stmt = ""; state = "code"; cont = 0 }
{
	line = $0
	if (state == "code" && (cont || line ~ /^[ \t]*#/)) {
		cont = line ~ /\\$/
		next
	}
	n = length(line)
	for (i = 1; i <= n; i++) {
		ch = substr(line, i, 1)
		if (state == "comment") {
			if (ch == "*" && substr(line, i + 1, 1) == "/") { state = "code"; i++ }
			continue
		}
		if (state == "string" || state == "char") {
			if (ch == "\\") i++
			else if ((ch == "\"" && state == "string") || (ch == "'" && state == "char"))
				state = "code"
			continue
		}
		if (ch == "/" && substr(line, i + 1, 1) == "*") { state = "comment"; i++; continue }
		if (ch == "/" && substr(line, i + 1, 1) == "/") break
		if (ch == "\"") { state = "string"; continue }
		if (ch == "'") { state = "char"; continue }
		if (ch == "{") {
			if (depth++ == 0) flush_stmt("{")
			continue
		}
		if (ch == "}") {
			if (--depth == 0) stmt = ""
			continue
		}
		if (depth) continue
		if (ch == ";") { flush_stmt(";"); continue }
		stmt = stmt ch
	}
	if (depth == 0) stmt = stmt " "
}
EOF
(cd "$top" && awk -f "$T_DIR/functions.awk" $(cut -d" " -f1 "$T_DIR/files")) >functions
# a function declared in a header of one layer and defined in a file of a
# layer above it: the files of the lower layer that call it need the layer
# above to link, a dependency upward that no include shows (as loads/load.h's
# load_ready() and the rest had on run/loadset.c)
awk -v layers="$LAYERS" '
BEGIN { n = split(layers, L, " "); for (i = 1; i <= n; i++) rank[L[i]] = i }
FILENAME == "files" { layer[$1] = $2; next }
$1 == "decl" { decl[$2] = $3; next }
$1 == "def" { def[$2] = def[$2] " " $3; defs++ }
END {
	if (defs < 100)
		print "only " defs + 0 " functions defined in all the files: were they read?" >> "upward"
	for (f in decl) {
		n = split(def[f], d, " ")
		for (i = 1; i <= n; i++)
			if (rank[layer[d[i]]] < rank[layer[decl[f]]])
				print d[i] " (" layer[d[i]] ") defines " f "(), which " decl[f] \
				      " (" layer[decl[f]] ", a layer below) declares" >> "upward"
	}
}' files functions
ok "every include names the layer of its header (\"layer/name.h\")" \
	sh -c '! test -s unnamed || { sed "s/^/# /" unnamed; false; }'
ok "no file includes a header of a layer above its own, nor defines a function a lower layer's header declares" \
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
