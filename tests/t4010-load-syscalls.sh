#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The loads issue the system calls of consequence that the commands they
# reproduce issue, and no others: each load and its stock command run for a
# few seconds under strace, and what decides what the kernel does with the
# data is compared.  Three kinds of comparison:
# - a set of features, which must be equal: any *sync*, fadvise and madvise
#   advice, mlock of a MiB or more, opens with O_TRUNC, removals, truncations, the largest
#   write, the largest read of /dev/zero, and the flags of every open of a
#   file (not a directory) in the test's own directories or of /dev/zero
#   (access mode, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_DIRECT, O_SYNC,
#   O_DSYNC, O_NOATIME, O_TMPFILE: an io_load with O_DIRECT fails here);
# - calls per unit of work, which must agree within TOL (15%: the load's
#   last unit is counted by its bytes or entries, its calls as made): stat-family
#   and xattr calls per entry listed, reads and writes per MB, fchown and
#   utimensat per member extracted, counted on the test's own files only
#   (a stock command's start-up, its libraries and locale, is left out);
# - the order in which ctar_load opens the tree's files, which must be the
#   directory's own order, as GNU tar's (--sort=none) is.
# The load's side is its processes after they report ready (the timed part,
# per unit of its `work:`); the stock side is every process of the command
# loop (sh, dd, tar, rm, cat, ls), per whole command run.
# Buffer sizes (the largest write, reads and writes per MB) are those of
# contest's reference tools, GNU tar 1.34 and coreutils 9.1 of Debian 12:
# where a local tool is another version, the test says so and does not
# compare them.
# With --io-sync, io, ctar and xtar sync on purpose: the oracle must see it.
. "$TOP_SRCDIR/tests/lib.sh"

command -v strace >/dev/null || skip_all "strace is needed (apt-get install strace)"
strace -f -qq -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here (ptrace refused)"

export LC_ALL=C
exec 3>&1	# the log, from inside a point's command (ok() keeps its output)
SECS=2
TOL=0.15
TRACE=trace=open,openat,creat,write,unlink,unlinkat,rmdir,truncate,ftruncate,fsync,fdatasync
TRACE=$TRACE,sync_file_range,syncfs,sync,fadvise64,madvise,read,mlock,mlock2,mlockall
TRACE=$TRACE,%stat,%lstat,%fstat,getxattr,lgetxattr,fchown,fchownat,lchown,chown,utimensat
W=$T_DIR/work
TREE=$T_DIR/tree

# ---- the tools traced, against contest's reference ---------------------------
REF_TAR=1.34
REF_COREUTILS=9.1
version() {	# version TOOL: the last word of its first --version line
	"$1" --version 2>/dev/null | awk 'NR == 1 { print $NF }'
}
echo "# traced here: GNU tar $(version tar), coreutils dd $(version dd), cat $(version cat)," \
	"ls $(version ls); contest's reference: GNU tar $REF_TAR and coreutils $REF_COREUTILS" \
	"(Debian 12)"
# reference TOOL: whether the local TOOL is the version contest's buffer
# sizes are those of; if not, says so
reference() {
	want=$REF_COREUTILS
	[ "$1" = tar ] && want=$REF_TAR
	have=$(version "$1")
	[ "$have" = "$want" ] && return 0
	echo "# $1 is $have here, contest's reference is $want: its buffer sizes are not compared"
	return 1
}

# a small tree of real files for the tar loads, the same on both sides
mkdir "$TREE" && cp -R "$TOP_SRCDIR/src" "$TOP_SRCDIR/loads" "$TREE/" ||
	skip_all "cannot copy the source tree to $TREE"

# features TRACE...: the calls that matter in strace output, one per line,
# sorted and unique; "write_max N" is the largest write() but to stderr
# (dd's report), "zero_read_max N" the largest read() of /dev/zero (strace
# -y names each descriptor's file), "open FLAGS" the flags that change what
# an open does, of a file in the test's directory or /dev/zero; opens of
# /dev/null (the shell's redirections) and failed calls (rm -rf of a DIR not
# there yet) are left out
features() {
	awk -v top="$T_DIR/" '
	function call(l) { sub(/^[0-9]+ +/, "", l); sub(/\(.*/, "", l); return l }
	function opened(l, s) {	# the file an open returned, from strace -y
		if (!match(l, /= [0-9]+<[^>]*>$/))
			return ""
		s = substr(l, RSTART, RLENGTH)
		sub(/^= [0-9]+</, "", s)
		sub(/>$/, "", s)
		return s
	}
	function flags(l, n, i, j, f, keep, out, t) {
		if (call(l) == "creat")
			l = ", O_WRONLY|O_CREAT|O_TRUNC"
		if (!match(l, /, O_[A-Z_]+(\|O_[A-Z_]+)*/))
			return "?"
		n = split(substr(l, RSTART + 2, RLENGTH - 2), f, "|")
		keep = 0
		for (i = 1; i <= n; i++)
			if (f[i] ~ /^O_(RDONLY|WRONLY|RDWR|CREAT|EXCL|TRUNC|APPEND|DIRECT|SYNC|DSYNC|NOATIME|TMPFILE)$/)
				out[++keep] = f[i]
		for (i = 2; i <= keep; i++)
			for (j = i; j > 1 && out[j - 1] > out[j]; j--) {
				t = out[j]; out[j] = out[j - 1]; out[j - 1] = t
			}
		t = out[1]
		for (i = 2; i <= keep; i++)
			t = t "|" out[i]
		return t
	}
	/(open|openat)\(.*"\/dev\/null"/ { next }
	/^(\+\+\+|---)/ { next }
	/ = -1 [A-Z]/ { next }
	{ c = call($0) }
	c ~ /^(fsync|fdatasync|sync_file_range|syncfs|sync)$/ { print "sync " c }
	# locking the memory of the load, not a page or two of the tool
	# (stress-ng locks 12 KiB of its shared state)
	c == "mlockall" { print "lock " c }
	(c == "mlock" || c == "mlock2") && match($0, /, [0-9]+/) &&
		substr($0, RSTART + 2, RLENGTH - 2) + 0 >= 1048576 { print "lock " c }
	c == "fadvise64" { match($0, /POSIX_FADV_[A-Z]+/); print "fadvise " substr($0, RSTART, RLENGTH) }
	c == "madvise" { match($0, /MADV_[A-Z_]+/); print "madvise " substr($0, RSTART, RLENGTH) }
	c == "creat" || ((c == "open" || c == "openat") && /O_TRUNC/) { print "open O_TRUNC" }
	(c == "creat" || c == "open" || c == "openat") && !/O_DIRECTORY|O_PATH/ {
		f = opened($0)
		if (f == "/dev/zero" || index(f, top) == 1)
			print "open " flags($0)
	}
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

# counts UNITS TRACE...: calls per unit of work on the test's own files
# (or those below $FILES),
# failed ones too (an xattr call answered ENODATA is the usual case), a
# "KEY VALUE" line each: stat (the stat family), lgetxattr, getxattr, chown
# (fchown, fchownat, lchown, chown), utimensat, read (of a file), zero_read
# (of /dev/zero), write (to a file, not the stock loop's own output .sout),
# null_write (to /dev/null)
counts() {
	units=$1
	shift
	awk -v top="${FILES:-$T_DIR/}" -v units="$units" '
	function call(l) { sub(/^[0-9]+ +/, "", l); sub(/\(.*/, "", l); return l }
	function fd(l, s) {	# the file of the first argument, a descriptor (-y)
		if (!match(l, /^[0-9]* *[a-z0-9_]+\((AT_FDCWD|[0-9]+)<[^>]*>/))
			return ""
		s = substr(l, RSTART, RLENGTH)
		sub(/^[^<]*</, "", s)
		sub(/>$/, "", s)
		return s
	}
	function named(l, n, d) {	# the file a call names: its path, relative
		if (!match(l, /"[^"]*"/))	# to its directory descriptor
			return fd(l)
		n = substr(l, RSTART + 1, RLENGTH - 2)
		if (n ~ /^\//)
			return n
		d = fd(l)
		return d == "" ? "?" n : n == "" ? d : d "/" n
	}
	function ours(f) { return index(f, top) == 1 }
	/^(\+\+\+|---)/ { next }
	{ c = call($0) }
	c ~ /^(stat|lstat|fstat|newfstatat|statx|fstatat64|stat64|lstat64|fstat64)$/ && ours(named($0)) { k["stat"]++ }
	(c == "lgetxattr" || c == "getxattr") && ours(named($0)) { k[c]++ }
	c ~ /^(fchown|fchownat|lchown|chown)$/ && ours(named($0)) { k["chown"]++ }
	c == "utimensat" && ours(named($0)) { k["utimensat"]++ }
	c == "read" && ours(fd($0)) { k["read"]++ }
	c == "read" && fd($0) == "/dev/zero" { k["zero_read"]++ }
	c == "write" && ours(fd($0)) && fd($0) !~ /\.sout$/ { k["write"]++ }
	c == "write" && fd($0) == "/dev/null" { k["null_write"]++ }
	END {
		split("stat lgetxattr getxattr chown utimensat read zero_read write null_write", keys)
		for (i = 1; i in keys; i++)
			printf "%s %.4f\n", keys[i], k[keys[i]] / units
	}
	' "$@"
}

# native NAME ARGS...: `contest load NAME` under strace for SECS seconds,
# and, as stock() runs its command at least twice, again for twice as long
# (up to 16 x SECS) while it completed fewer than two units: on a busy
# machine two seconds may not see xtar_load's second pass, which removes
# the first one's copy.  The features of its load processes after their
# ready byte, into NAME.native; their calls per unit of work (its `work:`,
# times $PER, default 1: entries per listing, members per extraction, MB
# per file), into NAME.ncount.
# The trace runs from the ready byte to the stop, `work:` counts the window
# only: what the load does while contest opens and closes it is in the one,
# not the other (0.4 s and more under strace on a busy machine: read_load's
# reads per MB 9.43 against cat's 8.13, ctar_load's 1670 reads per archive
# against tar's 1350).  With PASS set, a string that the open starting each
# pass has and no other open (O_TRUNC, a file's name), the calls counted are
# those from a process's first such open to its last, and the units its
# complete passes between them (times $PER): the same span on both counts.
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
	if [ -z "${PASS:-}" ]; then
		units=$(awk -v per="${PER:-1}" '$1 == "work:" { print $2 * per }' "$name.out")
		counts "${units:-0}" "$name.trace" >"$name.ncount"
		return
	fi
	: >"$name.passes"
	for f in tr/t.*; do
		grep -q '^write([0-9][^,]*, "r", 1)' "$f" || continue
		sed '1,/^write([0-9][^,]*, "r", 1)/d' "$f" | awk -v pass="$PASS" '
		/^(open|openat|creat)\(/ && index($0, pass) && !/ = -1 [A-Z]/ {
			if (n++)
				for (i = 1; i <= k; i++)
					print l[i]
			k = 0
		}
		n { l[++k] = $0 }
		END { if (n > 1) print "passes " n - 1 > "/dev/stderr" }
		' 2>>"$name.passes"
	done >"$name.cut"
	units=$(awk -v per="${PER:-1}" '$1 == "passes" { s += $2 } END { print s * per }' "$name.passes")
	echo "# $name: $units units in the complete passes traced (window: $(awk '$1 == "work:" { print $2 }' "$name.out") passes)" >&3
	[ "$units" != 0 ] && counts "$units" "$name.cut" >"$name.ncount"
	true
}

# stock NAME SCRIPT: the shell SCRIPT in a loop under strace, every
# process, for SECS seconds and at least twice (a second pass is what
# meets the first one's output: rm -rf of a full DIR, an existing FILE);
# its features into NAME.stock, its calls per run of SCRIPT (times $PER)
# into NAME.scount
stock() {
	rm -rf tr && mkdir tr || return 1
	strace -f -ff -qq -y -e "$TRACE" -o tr/t sh -c "
		cd '$T_DIR/s' || exit 1
		end=\$((\$(date +%s) + $SECS)) i=0
		while [ \$i -lt 2 ] || [ \$(date +%s) -lt \$end ]; do
			$2 || exit 1
			i=\$((i + 1))
		done
		echo \"runs: \$i\"" >"$1.sout" 2>&1 ||
		{ cat "$1.sout" >&2; return 1; }
	cat tr/t.* >"$1.strace"
	features "$1.strace" >"$1.stock"
	units=$(awk -v per="${PER:-1}" '$1 == "runs:" { print $2 * per }' "$1.sout")
	counts "${units:-0}" "$1.strace" >"$1.scount"
}

# same NAME WHAT [SIZED]: the load's features are the stock command's; with
# SIZED, a tool whose version is not contest's reference, the largest write
# and read (its buffer size) are left out
same() {
	if [ $# -gt 2 ]; then
		for s in "$1.native" "$1.stock"; do
			{ grep -v '^write_max\|^zero_read_max' "$s"; true; } >"$s.new" && mv "$s.new" "$s"
		done
	fi
	desc="$1: the calls that matter are those of $2 (native: $(tr '\n' ' ' <"$1.native" 2>&1)"
	desc="$desc; stock: $(tr '\n' ' ' <"$1.stock" 2>&1))"
	ok "$desc" cmp -s "$1.native" "$1.stock"
}

# near NAME KEY WHAT [SIZED]: the load's KEY calls per unit are the stock
# command's within TOL; with SIZED (a buffer size of a tool not of the
# reference version) the point is skipped, saying so
near() {
	n=$(awk -v k="$2" '$1 == k { print $2 }' "$1.ncount" 2>/dev/null)
	s=$(awk -v k="$2" '$1 == k { print $2 }' "$1.scount" 2>/dev/null)
	if [ $# -gt 3 ]; then
		skip "$1: $3 not compared: $4 here is not contest's reference version"
		return
	fi
	ok "$1: $3 as its command's, within $TOL (native ${n:-none}, stock ${s:-none})" \
		awk -v n="${n:-x}" -v s="${s:-y}" -v t="$TOL" 'BEGIN {
			if (n !~ /^[0-9.]+$/ || s !~ /^[0-9.]+$/) exit 1
			exit !(n >= s * (1 - t) && n <= s * (1 + t))
		}'
}

# opened_files TRACE: the tree's files with data, in the order TRACE opens
# them for reading (the first pass: as many as the tree holds)
opened_files() {
	awk -v tree="$TREE/" -v n="$(wc -l <files.dir)" '
	FNR == NR { want[$0] = 1; next }
	/^[0-9]* *open(at)?\(/ && !/O_DIRECTORY|O_PATH|O_WRONLY|O_RDWR/ &&
	    match($0, /= [0-9]+<[^>]*>$/) {
		f = substr($0, RSTART, RLENGTH)
		sub(/^= [0-9]+</, "", f)
		sub(/>$/, "", f)
		if (f in want && got++ < n)
			print f
	}' files.dir "$1"
}

mkdir "$T_DIR/s" || exit 1
IO="--io-size 8M"

# SIZED arguments: empty where the local tool is contest's reference version
SZ_TAR= SZ_CAT= SZ_LS=
reference tar || SZ_TAR=tar
reference cat || SZ_CAT=cat
reference ls || SZ_LS=ls

# ---- io_load: dd if=/dev/zero of=FILE bs=1M count=N ----------------------
# (dd's block size is its command line's: no version of dd changes it)
PER=8 PASS=O_TRUNC
ok "io_load runs under strace" native io_load $IO
PASS=
ok "dd runs under strace" stock io_load "dd if=/dev/zero of=io.dat bs=1M count=8 2>/dev/null"
same io_load "dd if=/dev/zero of=FILE bs=1M count=8"
ok "io_load: each pass opens the file with O_TRUNC" grep -qx "open O_TRUNC" io_load.native
ok "io_load: the file is opened as dd opens it (no O_DIRECT, no O_SYNC)" \
	grep -qx "open O_CREAT|O_TRUNC|O_WRONLY" io_load.native
ok "io_load: 1 MiB writes" grep -qx "write_max 1048576" io_load.native
ok "io_load: 1 MiB reads of /dev/zero, as dd's" grep -qx "zero_read_max 1048576" io_load.native
near io_load write "writes per MB"
near io_load zero_read "reads of /dev/zero per MB"

# ---- ctar_load: tar cf FILE TREE -----------------------------------------
MEMBERS=$(find "$TREE" -mindepth 1 | wc -l)
find "$TREE" -type f -size +0 >files.dir
# the same files in name order, directory by directory (each "/" sorts first)
tr / '\001' <files.dir | sort | tr '\001' / >files.name
if command -v tar >/dev/null && tar --version 2>/dev/null | grep -q 'GNU tar'; then
	PER=1 PASS=O_TRUNC
	ok "ctar_load runs under strace" native ctar_load -w "cmd:$TREE"
	PASS=
	ok "tar cf runs under strace" stock ctar_load "tar cf archive.tar -C '$T_DIR' tree"
	same ctar_load "tar cf FILE TREE" $SZ_TAR
	ok "ctar_load: the archive is truncated, not removed" \
		sh -c '! grep -q "^remove" ctar_load.native && grep -qx "open O_TRUNC" ctar_load.native'
	near ctar_load read "reads of the tree's files per archive" $SZ_TAR
	near ctar_load write "writes of the archive per archive" $SZ_TAR

	# the order of the reads: the directory's (readdir's), not the names'
	ok "the tree's directory order is not name order (else a sorted ctar would pass)" \
		sh -c '! cmp -s files.dir files.name'
	opened_files ctar_load.strace >files.tar
	ok "GNU tar opens the tree's files in directory order (find's)" \
		cmp files.dir files.tar
	opened_files ctar_load.trace >files.ctar
	ok "ctar_load opens them in the same order" cmp files.dir files.ctar

	# ---- xtar_load: rm -rf DIR; mkdir DIR; tar xf FILE -C DIR -------------
	# per member: GNU tar's archive holds the tree's top directory too
	PER=$MEMBERS
	ok "xtar_load runs under strace" native xtar_load -w "cmd:$TREE"
	PER=$((MEMBERS + 1))
	ok "rm -rf; tar xf runs under strace" stock xtar_load \
		"rm -rf x && mkdir x && tar xf archive.tar -C x"
	same xtar_load "rm -rf DIR; mkdir DIR; tar xf FILE -C DIR" $SZ_TAR
	ok "xtar_load: the last copy is removed (unlinkat)" grep -qx "remove file" xtar_load.native
	if [ "$(id -u)" = 0 ]; then
		ok "xtar_load: as root, GNU tar sets the owner of every member" \
			awk '$1 == "chown" { exit !($2 >= 0.9) }' xtar_load.scount
	else
		skip "xtar_load: GNU tar sets owners only as root"
	fi
	near xtar_load chown "fchown and fchownat per member"
	near xtar_load utimensat "utimensat per member"
	near xtar_load write "writes per member" $SZ_TAR
else
	for i in $(seq 18); do skip "GNU tar is not installed"; done
fi

# ---- read_load: cat FILE >/dev/null ---------------------------------------
PER=8 PASS=read_load.dat
ok "read_load runs under strace" native read_load $IO
PASS=
head -c 8388608 /dev/zero >"$T_DIR/s/read.dat" || exit 1
ok "cat runs under strace" stock read_load "cat read.dat >/dev/null"
same read_load "cat FILE" $SZ_CAT
near read_load read "reads per MB" $SZ_CAT
near read_load null_write "writes to /dev/null per MB" $SZ_CAT

# ---- list_load: ls -lRa DIR >/dev/null ------------------------------------
# a small root, so that both sides complete listings within the seconds.
# The trace holds the load's calls from its ready byte to its stop, its work
# only the window's: the listings made while contest opens and closes the
# window (0.3 s and more under strace on a busy machine: native stat 1.35
# per entry against ls's 1.15) count against 2 s, and far less against 8.
PER=$(find "$TREE" | wc -l)
secs_was=$SECS
SECS=8
ok "list_load runs under strace" native list_load --root "$TREE"
ok "ls -lRa runs under strace" stock list_load "ls -lRa '$TREE' >/dev/null"
SECS=$secs_was
same list_load "ls -lRa DIR" $SZ_LS
near list_load stat "stat-family calls per entry"
near list_load lgetxattr "lgetxattr (its SELinux label) per entry"
near list_load getxattr "getxattr (its ACLs) per entry"
near list_load null_write "writes to /dev/null per entry" $SZ_LS

# on a file system without xattrs (proc), ls asks once, not once an entry
# (coreutils 9.1's getfilecon_cache, file_has_acl_cache); so does list_load
if [ -d /proc/sys/kernel ]; then
	FILES=/proc/sys/kernel/ PER=$(find /proc/sys/kernel 2>/dev/null | wc -l)
	ok "list_load on proc runs under strace" native list_load --root /proc/sys/kernel
	ok "ls -lRa on proc runs under strace" stock list_load "ls -lRa /proc/sys/kernel >/dev/null 2>&1"
	n=$(awk '$1 ~ /getxattr$/ { s += $2 } END { print s + 0 }' list_load.ncount)
	s=$(awk '$1 ~ /getxattr$/ { s += $2 } END { print s + 0 }' list_load.scount)
	ok "list_load on proc: under 0.1 xattr calls per entry, as ls -lRa (native $n, stock $s)" \
		awk -v n="$n" -v s="$s" 'BEGIN { exit !(n < 0.1 && s < 0.1) }'
	FILES=
else
	for i in 1 2 3; do skip "no /proc/sys/kernel here"; done
fi
PER=1

# ---- process_load: a ring of dd over pipes ---------------------------------
# process_load's original ring program is lost (loads/process.c), so it is
# traced against the stand-in bench/fidelity.sh times as its stock side:
# the original's processes and chunks, each dd reading a whole chunk from
# its pipe and writing it on.  Here the ring closes through a FIFO (dash
# has no process substitution) and each dd passes 500 chunks and ends, so
# that the ring is a command the loop can run twice; the chunks come from
# a file, not /dev/zero, as process_load's come from memory.  Neither side
# syncs, advises, truncates or removes anything; both write 8 KiB at most.
# The stand-in's opens (its FIFO and the file its chunks come from) are its
# plumbing, not the load's, and are left out.
RING="--procs 4 --chunks 2 --chunk-size 8K"
ok "process_load runs under strace" native process_load $RING
dd="dd bs=8192 count=500 iflag=fullblock status=none"
(cd "$T_DIR/s" && mkfifo ring.fifo && head -c 16384 /dev/zero >chunks) || exit 1
ok "a ring of 4 dd over pipes runs under strace" stock process_load \
	"exec 3<>ring.fifo && dd if=chunks bs=8192 status=none >&3 &&
	$dd <&3 3>&- | $dd 3>&- | $dd 3>&- | $dd >&3 3>&- && exec 3>&-"
for s in process_load.native process_load.stock; do
	{ grep -v '^open ' "$s"; true; } >"$s.new" && mv "$s.new" "$s"
done
same process_load "a ring of dd bs=8K over pipes"

# ---- mem_load: stress-ng --vm ---------------------------------------------
# mem_load against stress-ng --vm, where it is here: neither syncs, advises
# a file or removes one, nor locks memory (its madvise of huge pages and
# stress-ng's own differ by design, and stress-ng's opens are of its own
# files, hence left out).
if why=$(mem_short 512); then
	for i in 1 2 3; do skip "mem_load not traced: $why"; done
elif command -v stress-ng >/dev/null; then
	ok "mem_load runs under strace" native mem_load --mem-size 64M
	ok "stress-ng --vm runs under strace" stock mem_load \
		"stress-ng --vm 1 --vm-bytes 64M --timeout 1 >/dev/null 2>&1"
	for s in mem_load.native mem_load.stock; do
		{ grep -v '^madvise\|^write_max\|^open ' "$s"; true; } >"$s.new" && mv "$s.new" "$s"
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
