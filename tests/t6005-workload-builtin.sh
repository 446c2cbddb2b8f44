#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The built-in workload's generator (src/workload/builtin.c): the same bytes every
# time, a kbuild-shaped tree whose Kbuild files match the files (find), units
# whose compile reads many shared headers (the compiler's own -M list), a
# build that combines each directory's objects (nm), a .cmd file per object
# as kbuild's fixdep writes (against cc -MM and grep), a clean that leaves
# the generated tree, and an identity that changes with the tree.
. "$TOP_SRCDIR/tests/lib.sh"

: "${BUILTIN_TOOL:?run the tests through make check}"
gen=$BUILTIN_TOOL
cc=${CC:-cc}

# ---- bad scales, determinism, prefix -------------------------------------------
mkdir z && "$gen" z 0 >out 2>err
ok_eq "scale 0 fails" "$?" 1
ok "and says why" grep -q "scale 0 out of range" err
mkdir big && "$gen" big 10001 >/dev/null 2>err
ok_eq "scale 10001 fails" "$?" 1

mkdir a b q
ok "the default tree is generated" "$gen" a default
"$gen" b default >/dev/null
ok "twice the same bytes" diff -r a b
"$gen" q quick >/dev/null
(cd q && find . -name 'unit_*.c' | sort) >q.units
ok "the quick tree has units" test -s q.units
prefix_ok=1
while read -r u; do cmp -s "q/$u" "a/$u" || { echo "differs: $u"; prefix_ok=0; }; done <q.units
ok_eq "each quick unit is the default tree's unit of that index" "$prefix_ok" 1

# ---- the identity follows the tree ---------------------------------------------
# The pairs of BUILTIN_VERSION and a checksum of the default tree seen so
# far.  A generator change that changes the tree fails here until the
# version is bumped (so old and new results never mix) and the pair added.
sum=$(cd a && find . -type f | LC_ALL=C sort | xargs cat | cksum | cut -d' ' -f1)
ver=$(sed -n '1s/.*built-in workload v\([0-9]*\),.*/\1/p' a/Makefile)
case "$ver $sum" in
"2 951180740") known=1 ;;
*) known=0; echo "# version $ver, tree checksum $sum: bump BUILTIN_VERSION and add the pair" ;;
esac
ok_eq "the tree's checksum is the one known for v$ver" "$known" 1
ok "contest's identity says builtin/$ver" \
	sh -c "'$CONTEST' --dry-run --quick noload 2>&1 | grep -q 'workload: builtin/$ver scale='"

# ---- the shape: Kbuild files against the files ----------------------------------
cd q || exit 99
ok "kbuild's shape: scripts/Makefile.build, wl_fixdep.c, a Kbuild in init" \
	test -f scripts/Makefile.build -a -f scripts/wl_fixdep.c -a -f init/Kbuild
# every object a Kbuild lists has its source, and every source is listed
for k in $(find . -name Kbuild | sort); do
	d=$(dirname "$k")
	sed -n '/^obj-y/,/^$/p' "$k" | tr -d '\\' | tr ' \t' '\n\n' | grep '\.o$' |
		sed "s|^|$d/|; s|\.o\$|.c|" >>../listed
	sed -n '/^subdir-y/,/^$/p' "$k" | tr -d '\\' | tr ' \t' '\n\n' | grep -v '^subdir-y\|^:=\|^$' |
		sed "s|^|$d/|" >>../subdirs
done
sort -o ../listed ../listed
find . -name '*.c' ! -path './scripts/*' | sort >../sources
ok "the Kbuild files list every source once, and only those" cmp -s ../listed ../sources
sed -n '/^DIRS/,/^$/p' Makefile | tr -d '\\' | tr ' \t' '\n\n' | grep -v '^DIRS\|^=\|^$' |
	sed 's|^|./|' >>../subdirs
sort -o ../subdirs ../subdirs
find . -name Kbuild | xargs -n1 dirname | sort >../kdirs
ok "every directory with a Kbuild is a top DIR or a parent's subdir-y" cmp -s ../subdirs ../kdirs
ok "more than one level of directories" grep -q '^\./[a-z]*/[a-z]*/' ../kdirs

# ---- headers shared by the units ------------------------------------------------
command -v "$cc" >/dev/null || { skip "no C compiler ($cc)"; done_testing; exit; }
u=$(head -n 1 ../q.units | sed "s|^\./||")
"$cc" -Iinclude -include include/generated/autoconf.h -M "$u" | tr -d '\\' | tr ' ' '\n' |
	grep '^include/wl/h' | sort -u >../hdrs
ok "a unit reads more than 100 library headers (cc -M: $(wc -l <../hdrs))" test "$(wc -l <../hdrs)" -gt 100
pp=$("$cc" -Iinclude -include include/generated/autoconf.h -E "$u" | wc -c)
ok "preprocessed, a unit is 20 times its own size ($pp bytes)" test "$pp" -gt $((20 * $(wc -c <"$u")))
u2=$(sed -n 2p ../q.units | sed "s|^\./||")
"$cc" -Iinclude -include include/generated/autoconf.h -M "$u2" | tr -d '\\' | tr ' ' '\n' |
	grep '^include/wl/h' | sort -u >../hdrs2
ok "two units share most of their headers" test "$(comm -12 ../hdrs ../hdrs2 | wc -l)" -gt 60

# ---- the build -------------------------------------------------------------------
command -v make >/dev/null || { skip "make is not installed"; done_testing; exit; }
find . | sort >../generated
make -j4 CC="$cc" CFLAGS="-O2 -Wall -Wextra -Werror" >../build.log 2>&1
ok_eq "the tree builds with -Wall -Wextra -Werror" "$?" 0
ok "the program runs" sh -c './wl_prog | grep -q "^[0-9a-f]\{8\}$"'
ok "one make per directory (kbuild's Makefile.build)" \
	test "$(grep -c 'LD      .*/built-in.o' ../build.log)" -eq "$(wc -l <../kdirs)"
if command -v nm >/dev/null; then
	nm_ok=1
	for d in $(cat ../kdirs); do
		find "$d" -name 'unit_*.c' | sed 's|.*/unit_\([0-9]*\)\.c|unit_\1_run|' | sort >../want
		nm -g --defined-only "$d/built-in.o" | awk '$3 ~ /^unit_[0-9]*_run$/ { print $3 }' | sort >../got
		cmp -s ../want ../got || { echo "$d/built-in.o"; diff ../want ../got; nm_ok=0; }
	done
	ok_eq "each built-in.o holds the units in and below its directory (nm)" "$nm_ok" 1
else
	skip "nm is not installed"
fi
# kbuild's .cmd: the dependencies are the compiler's, the options those the files mention
c=$(dirname "$u")/.$(basename "$u" .c).o.cmd
ok "every object has its .cmd" test "$(find . -name '.*.o.cmd' | wc -l)" -eq "$(wc -l <../sources)"
sed -n '/^deps_/,/^$/p' "$c" | grep -v 'wildcard\|^deps_' | tr -d '\\ ' | grep . | sort >../cmd.deps
"$cc" -Iinclude -include include/generated/autoconf.h -MM "$u" | tr -d '\\' | tr ' ' '\n' |
	grep . | sed 1,2d | sort >../mm.deps
ok "its deps are the compiler's (cc -MM)" cmp -s ../cmd.deps ../mm.deps
sed -n 's/.*$(wildcard include\/config\/\([a-z0-9_]*\)).*/\1/p' "$c" | sort >../cmd.cfg
{ cat "$u"; xargs cat <../mm.deps; } | grep -o 'WL_CONFIG_[A-Za-z0-9_]*' | sed 's/^WL_CONFIG_//' |
	tr 'A-Z' 'a-z' | sort -u >../grep.cfg
ok "its options are those its files mention (grep)" cmp -s ../cmd.cfg ../grep.cfg
ok "the options are many" test "$(wc -l <../cmd.cfg)" -gt 10

make clean >/dev/null 2>&1
ok_eq "make clean exits 0" "$?" 0
find . | sort >../cleaned
ok "make clean leaves exactly the generated tree" cmp -s ../generated ../cleaned

done_testing
