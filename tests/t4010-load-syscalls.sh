#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The loads issue the system calls of consequence that the commands they
# reproduce issue, and no others: each load and its stock command run for a
# few seconds under strace, and the calls that decide what the kernel does
# with the data are compared (any *sync*, fadvise and madvise advice, opens
# with O_TRUNC, removals, truncations, the largest write, the largest read
# of /dev/zero).  The load's side
# is its processes after they report ready (the timed part); the stock
# side is every process of the command loop (sh, dd, tar, rm, cat, ls).
# With --io-sync, io, ctar and xtar sync on purpose: the oracle must see it.
. "$TOP_SRCDIR/tests/lib.sh"

command -v strace >/dev/null || skip_all "strace is needed (apt-get install strace)"
strace -f -qq -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here (ptrace refused)"

SECS=2
TRACE=trace=open,openat,creat,write,unlink,unlinkat,rmdir,truncate,ftruncate,fsync,fdatasync
TRACE=$TRACE,sync_file_range,syncfs,sync,fadvise64,madvise,read
W=$T_DIR/work
TREE=$T_DIR/tree

# a small tree of real files for the tar loads, the same on both sides
mkdir "$TREE" && cp -R "$TOP_SRCDIR/src" "$TOP_SRCDIR/loads" "$TREE/" ||
	skip_all "cannot copy the source tree to $TREE"

# features TRACE...: the calls that matter in strace output, one per line,
# sorted and unique; "write_max N" is the largest write() but to stderr
# (dd's report), "zero_read_max N" the largest read() of /dev/zero (strace
# -y names each descriptor's file); opens of /dev/null (the shell's
# redirections) and failed calls (rm -rf of a DIR not there yet) are left out
features() {
	awk '
	function call(l) { sub(/^[0-9]+ +/, "", l); sub(/\(.*/, "", l); return l }
	/(open|openat)\(.*"\/dev\/null"/ { next }
	/^(\+\+\+|---)/ { next }
	/ = -1 [A-Z]/ { next }
	{ c = call($0) }
	c ~ /^(fsync|fdatasync|sync_file_range|syncfs|sync)$/ { print "sync " c }
	c == "fadvise64" { match($0, /POSIX_FADV_[A-Z]+/); print "fadvise " substr($0, RSTART, RLENGTH) }
	c == "madvise" { match($0, /MADV_[A-Z_]+/); print "madvise " substr($0, RSTART, RLENGTH) }
	c == "creat" || ((c == "open" || c == "openat") && /O_TRUNC/) { print "open O_TRUNC" }
	c == "unlink" || (c == "unlinkat" && !/AT_REMOVEDIR/) { print "remove file" }
	c == "rmdir" || (c == "unlinkat" && /AT_REMOVEDIR/) { print "remove directory" }
	c == "truncate" || c == "ftruncate" { print "truncate" }
	c == "write" && !/^write\(2[,<]/ {
		n = $NF + 0
		if (n > max) max = n
	}
	c == "read" && /^read\([0-9]+<\/dev\/zero>/ {
		n = $NF + 0
		if (n > zmax) zmax = n
	}
	END {
		if (max) print "write_max " max
		if (zmax) print "zero_read_max " zmax
	}
	' "$@" | sort -u
}

# native NAME ARGS...: `contest load NAME` under strace for SECS seconds,
# and, as stock() runs its command at least twice, again for twice as long
# (up to 16 x SECS) while it completed fewer than two units: on a busy
# machine two seconds may not see xtar_load's second pass, which removes
# the first one's copy.  The features of its load processes after their
# ready byte, into NAME.native.
native() {
	name=$1
	shift
	secs=$SECS
	while :; do
		rm -rf tr && mkdir tr || return 1
		strace -f -ff -qq -y -e "$TRACE" -o tr/t "$CONTEST" load "$name" -t $secs \
			--work-dir "$W" "$@" >"$name.out" 2>&1 || { cat "$name.out" >&2; return 1; }
		awk '$1 == "work:" && $2 + 0 >= 2 { two = 1 } END { exit !two }' "$name.out" &&
			break
		[ "$secs" -lt $((16 * SECS)) ] || break
		secs=$((2 * secs))
	done
	: >"$name.trace"
	for f in tr/t.*; do
		# a load process writes one byte "r" when it is ready (loadset.c)
		grep -q '^write([0-9][^,]*, "r", 1)' "$f" || continue
		sed '1,/^write([0-9][^,]*, "r", 1)/d' "$f" >>"$name.trace"
	done
	test -s "$name.trace" || { echo "no load process traced" >&2; return 1; }
	features "$name.trace" >"$name.native"
}

# stock NAME SCRIPT: the shell SCRIPT in a loop under strace, every
# process, for SECS seconds and at least twice (a second pass is what
# meets the first one's output: rm -rf of a full DIR, an existing FILE);
# its features into NAME.stock
stock() {
	rm -rf tr && mkdir tr || return 1
	strace -f -ff -qq -y -e "$TRACE" -o tr/t sh -c "
		cd '$T_DIR/s' || exit 1
		end=\$((\$(date +%s) + $SECS)) i=0
		while [ \$i -lt 2 ] || [ \$(date +%s) -lt \$end ]; do
			$2 || exit 1
			i=\$((i + 1))
		done" >"$1.sout" 2>&1 ||
		{ cat "$1.sout" >&2; return 1; }
	cat tr/t.* >"$1.strace"
	features "$1.strace" >"$1.stock"
}

# same NAME WHAT: the load's features are the stock command's
same() {
	desc="$1: the calls that matter are those of $2 (native: $(tr '\n' ' ' <"$1.native" 2>&1)"
	desc="$desc; stock: $(tr '\n' ' ' <"$1.stock" 2>&1))"
	ok "$desc" cmp -s "$1.native" "$1.stock"
}

mkdir "$T_DIR/s" || exit 1
IO="--io-size 8M"

# ---- io_load: dd if=/dev/zero of=FILE bs=1M count=N ----------------------
ok "io_load runs under strace" native io_load $IO
ok "dd runs under strace" stock io_load "dd if=/dev/zero of=io.dat bs=1M count=8 2>/dev/null"
same io_load "dd if=/dev/zero of=FILE bs=1M count=8"
ok "io_load: each pass opens the file with O_TRUNC" grep -qx "open O_TRUNC" io_load.native
ok "io_load: 1 MiB writes" grep -qx "write_max 1048576" io_load.native
ok "io_load: 1 MiB reads of /dev/zero, as dd's" grep -qx "zero_read_max 1048576" io_load.native

# ---- ctar_load: tar cf FILE TREE -----------------------------------------
if command -v tar >/dev/null && tar --version 2>/dev/null | grep -q 'GNU tar'; then
	ok "ctar_load runs under strace" native ctar_load -w "cmd:$TREE"
	ok "tar cf runs under strace" stock ctar_load "tar cf archive.tar -C '$T_DIR' tree"
	same ctar_load "tar cf FILE TREE"
	ok "ctar_load: the archive is truncated, not removed" \
		sh -c '! grep -q "^remove" ctar_load.native && grep -qx "open O_TRUNC" ctar_load.native'

	# ---- xtar_load: rm -rf DIR; mkdir DIR; tar xf FILE -C DIR -------------
	ok "xtar_load runs under strace" native xtar_load -w "cmd:$TREE"
	ok "rm -rf; tar xf runs under strace" stock xtar_load \
		"rm -rf x && mkdir x && tar xf archive.tar -C x"
	same xtar_load "rm -rf DIR; mkdir DIR; tar xf FILE -C DIR"
	ok "xtar_load: the last copy is removed (unlinkat)" grep -qx "remove file" xtar_load.native
else
	for i in 1 2 3 4 5 6 7 8; do skip "GNU tar is not installed"; done
fi

# ---- read_load: cat FILE >/dev/null ---------------------------------------
ok "read_load runs under strace" native read_load $IO
head -c 8388608 /dev/zero >"$T_DIR/s/read.dat" || exit 1
ok "cat runs under strace" stock read_load "cat read.dat >/dev/null"
same read_load "cat FILE"

# ---- list_load: ls -lRa DIR >/dev/null ------------------------------------
# a small root, so that both sides complete listings within the seconds
ok "list_load runs under strace" native list_load --root "$TREE"
ok "ls -lRa runs under strace" stock list_load "ls -lRa '$TREE' >/dev/null"
same list_load "ls -lRa DIR"

# ---- process_load: a ring of dd over pipes ---------------------------------
# process_load's original ring program is lost (loads/process.c), so it is
# traced against the stand-in bench/fidelity.sh times as its stock side:
# the original's processes and chunks, each dd reading a whole chunk from
# its pipe and writing it on.  Here the ring closes through a FIFO (dash
# has no process substitution) and each dd passes 500 chunks and ends, so
# that the ring is a command the loop can run twice; the chunks come from
# a file, not /dev/zero, as process_load's come from memory.  Neither side
# syncs, advises, truncates or removes anything; both write 8 KiB at most.
RING="--procs 4 --chunks 2 --chunk-size 8K"
ok "process_load runs under strace" native process_load $RING
dd="dd bs=8192 count=500 iflag=fullblock status=none"
(cd "$T_DIR/s" && mkfifo ring.fifo && head -c 16384 /dev/zero >chunks) || exit 1
ok "a ring of 4 dd over pipes runs under strace" stock process_load \
	"exec 3<>ring.fifo && dd if=chunks bs=8192 status=none >&3 &&
	$dd <&3 3>&- | $dd 3>&- | $dd 3>&- | $dd >&3 3>&- && exec 3>&-"
same process_load "a ring of dd bs=8K over pipes"

# ---- mem_load: stress-ng --vm ---------------------------------------------
# mem_load against stress-ng --vm, where it is here: neither syncs, advises
# a file or removes one (its madvise of huge pages and stress-ng's own
# differ by design, hence left out).
if why=$(mem_short 512); then
	for i in 1 2 3; do skip "mem_load not traced: $why"; done
elif command -v stress-ng >/dev/null; then
	ok "mem_load runs under strace" native mem_load --mem-size 64M
	ok "stress-ng --vm runs under strace" stock mem_load \
		"stress-ng --vm 1 --vm-bytes 64M --timeout 1 >/dev/null 2>&1"
	for s in mem_load.native mem_load.stock; do
		{ grep -v '^madvise\|^write_max' "$s"; true; } >"$s.new" && mv "$s.new" "$s"
	done
	same mem_load "stress-ng --vm 1"
else
	for i in 1 2 3; do skip "stress-ng is not installed: mem_load not traced"; done
fi

# ---- the oracle sees a sync: --io-sync syncs on purpose --------------------
for load in io_load ctar_load xtar_load; do
	if [ ! -s "$load.stock" ]; then
		skip "$load: no stock trace to compare with"
		continue
	fi
	mv "$load.native" "$load.plain"
	args=$IO
	[ "$load" = io_load ] || args="-w cmd:$TREE"
	# shellcheck disable=SC2086
	native "$load" $args --io-sync
	ok "$load --io-sync: the oracle sees the sync that $load's command lacks" \
		sh -c "grep -q '^sync ' $load.native && ! cmp -s $load.native $load.stock"
done

ok "nothing is left in the work directory" test ! -e "$W"

done_testing
