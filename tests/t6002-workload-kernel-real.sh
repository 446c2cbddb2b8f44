#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -w kernel:DIR on a real Linux tree, named by CONTEST_KERNEL_TREE (a clean
# tree: e.g. Debian's linux-source-6.1, extracted).  Without it this test
# skips.  It configures tinyconfig and builds vmlinux three times (warm-up,
# noload, cacherun): minutes, not seconds (about 10 on 2 CPUs).  The tree
# must come out of it exactly as it went in.
. "$TOP_SRCDIR/tests/lib.sh"

tree=${CONTEST_KERNEL_TREE:-}
[ -n "$tree" ] || skip_all "CONTEST_KERNEL_TREE is not set: name a clean Linux source tree" \
	"to build it (tinyconfig, three times)"
[ -f "$tree/Makefile" ] && [ -f "$tree/Kconfig" ] ||
	skip_all "CONTEST_KERNEL_TREE=$tree is not a Linux source tree"
for tool in make gcc flex bison bc; do
	command -v $tool >/dev/null || skip_all "$tool is not installed; a kernel build needs it"
done
[ -e "$tree/.config" ] && skip_all "$tree has a .config: run make mrproper there first"

decode() { sed 's/%20/ /g; s/%3D/=/g; s/%25/%/g' "$@"; }
# every path with its type, size, mtime (ns) and mode; directories' mtimes
# show a file created and removed again
snap() { (cd "$tree" && find . -printf '%p %y %s %T@ %m\n' | LC_ALL=C sort); }
snap >before
git=0
if command -v git >/dev/null && git -C "$tree" rev-parse --git-dir >/dev/null 2>&1; then
	git=1
	git -C "$tree" status --porcelain --ignored >gbefore
fi
version=$(make -s --no-print-directory -C "$tree" kernelversion)

"$CONTEST" -w "kernel:$tree" -n 1 -k real --work-dir wd -d res noload cacherun >out 2>err
ok_eq "the suite on $tree exits 0" "$?" 0
ok "noload row" sh -c "sed -n '/^noload:/,/^\$/p' out | grep -q '^real  *\[1\] '"
ok "cacherun row" sh -c "sed -n '/^cacherun:/,/^\$/p' out | grep -q '^real  *\[1\] '"
"$CONTEST" report -d res >rep 2>&1
ok "report shows both" sh -c "grep -q '^noload:' rep && grep -q '^cacherun:' rep"
decode res/real.results >records
ok_eq "two valid runs" "$(grep '^run ' records | grep -c ' valid=1 ')" 2
ok "identity: the tree's version, config hash, vmlinux" \
	grep -q "^run .* workload=kernel/$version config=[0-9a-f]\{16\} target=vmlinux jobs=" records
ok "the compiler is the one kbuild found" grep -q "^env .* cc=gcc" records

snap >after
ok "the tree's files, sizes, mtimes and modes are unchanged" diff -u before after
if [ $git = 1 ]; then
	git -C "$tree" status --porcelain --ignored >gafter
	ok "git status is unchanged" diff -u gbefore gafter
else
	skip "$tree is not a git work tree"
fi
ok "the work directory, with the build, is gone" test ! -e wd

done_testing
