#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -w kernel:DIR on a fixture tree whose Makefile behaves like Linux's
# (tests/data/kernel-fixture): configured once out of tree, cleaned and built
# every run, its identity recorded, the source tree never written; --kconfig,
# --target, -j, a tree that is not clean, --in-tree, builds that fail, and
# ctar_load reading the source tree.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"
[ -n "${CC:-}" ] || command -v gcc >/dev/null || skip_all "no gcc, kbuild's default compiler"

cp -R "$TOP_SRCDIR/tests/data/kernel-fixture" tree && chmod -R u+w tree || exit 99
tree=$(cd tree && pwd -P)
# a file only a reader of the source tree opens: its atime says who read it
dd if=/dev/zero of=tree/blob bs=1024 count=64 2>/dev/null
touch -a -d '2000-01-01 00:00:00 UTC' tree/blob
snap() { (cd tree && find . -printf '%p %y %s %T@ %m\n' | sort); }
snap >before
# record values are %-escaped; enough of that to read them back
decode() { sed 's/%20/ /g; s/%3D/=/g; s/%25/%/g' "$@"; }
field() { grep "^$2 " "$1" | tail -n 1 | tr ' ' '\n' | sed -n "s/^$3=//p" | decode; }

FIXTURE_TRACE=$T_DIR/trace
export FIXTURE_TRACE
jobs=$((4 * $(getconf _NPROCESSORS_ONLN)))
cc_text=$(${CC:-cc} --version | head -n 1)

# ---- a suite ---------------------------------------------------------------
"$CONTEST" -w kernel:tree -n 1 -k fx --work-dir wd -d res noload cacherun >out 2>err
ok_eq "a suite on the fixture tree exits 0" "$?" 0
ok "it prints the tables" grep -q "^fx  *\[1\] " out
ok "it says it configures, and where" grep -q "configuring $tree with tinyconfig in $T_DIR/wd/run-.*/build" err
ok_eq "configured once, then clean + build for the warm-up and each run" \
	"$(cut -d' ' -f1 trace | tr '\n' ' ')" "tinyconfig clean vmlinux clean vmlinux clean vmlinux "
ok "every make ran out of tree, in a build directory in the work directory" \
	sh -c "! grep -v ' O=$T_DIR/wd/run-[0-9]*-....../build ' trace"
ok "vmlinux was made with -j 4 x CPUs ($jobs)" sh -c "! grep '^vmlinux' trace | grep -v -q ' jobs=$jobs\$'"
snap >after
ok "the source tree is unchanged: no file added or removed, sizes, mtimes, modes" \
	diff -u before after
ok "the run directory, with the build, is gone" sh -c "! ls wd/run-* 2>/dev/null | grep -q ."

f=res/fx.results
hash1=$(field $f env workload_config)
decode $f | grep '^run ' >runs
ok "run records name the kernel workload" grep -q -F " workload=kernel/6.99.0-fixture config=" runs
ok "the config hash is 16 hex digits" sh -c "echo '$hash1' | grep -q '^[0-9a-f]\{16\}\$'"
ok_eq "env: workload_kind" "$(field $f env workload_kind)" "kernel"
ok_eq "env: workload_version from make kernelversion" "$(field $f env workload_version)" "6.99.0-fixture"
ok_eq "env: workload_tree, absolute" "$(field $f env workload_tree)" "$tree"
ok_eq "env: workload_kconfig" "$(field $f env workload_kconfig)" "tinyconfig"
ok_eq "env: workload_target" "$(field $f env workload_target)" "vmlinux"
ok_eq "env: jobs" "$(field $f env jobs)" "$jobs"
decode $f | grep '^env ' >envline
ok "env: cc is the .config's CONFIG_CC_VERSION_TEXT" grep -q -F " cc=$cc_text " envline
ok "identity: version, config hash, target, jobs, compiler" grep -q -F \
	" workload=kernel/6.99.0-fixture config=$hash1 target=vmlinux jobs=$jobs cc=$cc_text flush=" runs

# ---- the same label, another configuration, target and -j ------------------
: >trace
"$CONTEST" -w kernel:tree -n 1 -k fx --work-dir wd -d res -j 3 --kconfig defconfig \
	--target bzImage noload >/dev/null 2>err
ok_eq "defconfig, bzImage, -j 3: exits 0" "$?" 0
ok_eq "configured with defconfig, built bzImage" \
	"$(cut -d' ' -f1 trace | tr '\n' ' ')" "defconfig clean bzImage clean bzImage "
ok "bzImage was made with -j 3" sh -c "! grep '^bzImage' trace | grep -v -q ' jobs=3\$'"
hash2=$(field $f env workload_config)
ok "another configuration, another config hash" test "$hash1" != "$hash2" -a -n "$hash2"
"$CONTEST" report -d res >rep 2>err
ok_eq "report exits 0" "$?" 0
ok "one label on two workloads: two rows, never one mean" \
	sh -c "grep -q '^fx (1)  *\[1\] ' rep && grep -q '^fx (2)  *\[1\] ' rep && ! grep -q '^fx  *\[' rep"
ok "a line under the tables says so" grep -q "^fx (1) and fx (2): fx measured on 2 workloads, shown apart\$" rep
ok "the differences are named: jobs" grep -q "^jobs: fx (1) $jobs, fx (2) 3\$" rep
ok "the differences are named: config hash" grep -q "^workload_config: fx (1) $hash1, fx (2) $hash2\$" rep
ok "the differences are named: target" grep -q "^workload_target: fx (1) vmlinux, fx (2) bzImage\$" rep
ok "what did not differ is not listed" sh -c "! grep -q '^cpu_model:\|^workload_version:\|^kernel:' rep"

# ---- --kconfig FILE ---------------------------------------------------------
mkdir cfg && make -s -C tree O="$T_DIR/cfg" tinyconfig >/dev/null 2>&1 || exit 99
: >trace
"$CONTEST" -w kernel:tree -n 1 -k fz --work-dir wd -d res --kconfig "$T_DIR/cfg/.config" \
	noload >/dev/null 2>err
ok_eq "--kconfig FILE: exits 0" "$?" 0
ok_eq "the file is copied in and resolved with olddefconfig" "$(head -n 1 trace | cut -d' ' -f1)" "olddefconfig"
ok_eq "the same resolved configuration has the same hash" "$(field res/fz.results env workload_config)" "$hash1"
"$CONTEST" -w kernel:tree -n 1 -k fz --work-dir wd -d res --kconfig nosuch noload >/dev/null 2>err
ok_eq "--kconfig neither file nor *config target: exit 1" "$?" 1
ok "it says what it wants" grep -q "nosuch: not a file, nor a make target ending in 'config'" err
"$CONTEST" -w kernel:tree -n 1 -k fz --work-dir wd -d res --kconfig ./nosuch noload >/dev/null 2>err
ok "--kconfig ./nosuch: no such file" grep -q "No such file or directory" err
"$CONTEST" -w kernel:tree --build-cmd true -n 1 -k fz noload >/dev/null 2>err
ok_eq "--build-cmd with a kernel: exit 2" "$?" 2
mkdir notakernel
"$CONTEST" -w kernel:notakernel -n 1 -k fz --work-dir wd -d res noload >/dev/null 2>err
ok "a directory without a Makefile is refused" grep -q "has no Makefile: not a Linux source tree" err

# ---- ctar_load archives the source tree --------------------------------------
touch -a -d '2000-01-01 00:00:00 UTC' probe && cat probe >/dev/null
if [ "$(stat -c %X probe)" = 946684800 ]; then
	skip "atime is not updated here (noatime): cannot see who reads the tree"
	skip "atime is not updated here (noatime)"
else
	ok_eq "no build or flush read the source tree's blob" "$(stat -c %X tree/blob)" 946684800
	"$CONTEST" -w kernel:tree -n 1 -k fc --work-dir wd -d res --quick --lead-time 0 \
		ctar_load >/dev/null 2>err
	ok "ctar_load read the kernel source tree (its blob's atime moved)" \
		test "$(stat -c %X tree/blob)" != 946684800
fi
touch -a -d '2000-01-01 00:00:00 UTC' tree/blob

# ---- a build that fails -------------------------------------------------------
FIXTURE_FAIL_AFTER=1 "$CONTEST" -w kernel:tree -n 1 -k ff --work-dir wd -d res noload >out 2>err
ok_eq "a failed timed build does not stop the suite" "$?" 0
ok "the run is invalid" grep -q "noload round 1/1: INVALID: the workload failed: exit status 2" err
ok "the end of the log shows the syntax error" grep -q "broken.c.*error" err
ok "it says where the whole log is" grep -q "(the whole log: wd/last-failed-build.log)" err
ok "the whole log is kept in the work directory" grep -q "broken.c" wd/last-failed-build.log
ok_eq "no time recorded" "$(field res/ff.results run elapsed_ns)" 0
ok_eq "the record says invalid" "$(field res/ff.results run valid)" 0
ok "the run directory is gone all the same" sh -c "! ls wd/run-* 2>/dev/null | grep -q ."
rm -f wd/last-failed-build.log

FIXTURE_FAIL=1 "$CONTEST" -w kernel:tree -n 2 -k fw --work-dir wd -d res noload cacherun >out 2>err
ok_eq "a failed warm-up stops contest with exit status 1" "$?" 1
ok "it says the warm-up failed" grep -q "the warm-up build failed (exit status 2); the end of its log:" err
ok "with the log's end" grep -q "broken.c.*error" err
ok "and the kept log" test -s wd/last-failed-build.log
ok "no timed run started" sh -c "! grep -q 'round 1/2' err"
ok "nothing recorded" sh -c "! grep -q '^run ' res/fw.results 2>/dev/null"

# ---- a tree that is not clean -----------------------------------------------
touch tree/.config
: >trace
"$CONTEST" -w kernel:tree -n 1 -k fn --work-dir wd -d res noload >out 2>err
ok_eq "a tree that is not clean: exit 1" "$?" 1
ok "the error says so" grep -q "refuses an out-of-tree build: its source tree is not clean" err
ok "and suggests make mrproper" grep -q "make mrproper" err
ok "and --in-tree" grep -q -- "--in-tree" err
ok "nothing was built" sh -c "! grep -q vmlinux trace"

"$CONTEST" -w kernel:tree --in-tree -n 1 -k fi --work-dir wd -d res noload >out 2>err
ok_eq "--in-tree builds it: exits 0" "$?" 0
ok "after a warning that contest runs make clean there" \
	grep -q -- "--in-tree: building in $tree itself: .* runs 'make clean' there" err
ok "in the tree, without O=" sh -c "grep -q '^vmlinux O= ' trace && ! grep -q 'O=/' trace"
ok "the build's output is in the tree" test -f tree/vmlinux
ok_eq "env: workload_in_tree" "$(field res/fi.results env workload_in_tree)" 1

done_testing
