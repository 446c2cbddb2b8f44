#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input, beyond the command-line errors of t1001 and the damaged files of
# t3002: numbers out of range, labels with tabs or non-ASCII bytes, results
# directories that are missing, a file, unreadable or empty, and labels that
# try to name a path.  Each is a clear message and a non-zero exit, or is
# handled safely; nothing is created by a refused command.
. "$TOP_SRCDIR/tests/lib.sh"

# refused DESCRIPTION STATUS PATTERN ARGS...: that exit status, PATTERN on
# stderr, nothing on stdout
refused() {
	desc=$1 want=$2 pattern=$3; shift 3
	"$CONTEST" "$@" >out 2>err
	ok_eq "$desc: exit status" "$?" "$want"
	ok "$desc: the message says '$pattern'" grep -q -- "$pattern" err
	ok "$desc: nothing on stdout" test ! -s out
}

refused "negative processes" 2 "from 2 to 4096, not '-1'" --procs -1
refused "huge processes" 2 "from 2 to 4096" --procs 99999999999
refused "zero jobs" 2 "from 1 to 4096, not '0'" -j 0
refused "negative size" 2 "wants a size" --mem-size -5G
refused "huge size" 2 "wants a size" --mem-size 99E
refused "size of zero" 2 "wants a size" --chunk-size 0
refused "nice out of range" 2 "from -20 to 19" --load-nice 100
refused "seconds overflowing a double" 2 "seconds from 0 to 3600" --lead-time 1e400
refused "seconds that are not a number" 2 "seconds from 0 to 3600" --lead-time nan
refused "load time of zero" 2 "seconds" load spin_load -t 0
refused "label with a tab" 2 "bad label" -k "$(printf 'a\tb')" noload
refused "label with a non-ASCII byte" 2 "non-ASCII byte (0xc3)" -k "$(printf 'caf\303\251')" noload
refused "label with a control byte" 2 "bad label" -k "$(printf 'a\033b')" noload
refused "label of 65 bytes" 2 "at most 64" -k "$(printf '%065d' 0)" noload
ok_eq "the refused runs created nothing" "$(ls -A | grep -v -x -e out -e err -e .out)" ""

# results directories
refused "report on a missing directory" 1 "cannot read results directory nowhere" report -d nowhere
echo text >afile
refused "report on a file posing as the directory" 1 "afile: Not a directory" report -d afile
mkdir empty
refused "report on an empty directory" 1 "no valid runs" report -d empty
: >empty/k.results
refused "report on an empty results file" 1 "no valid runs" report -d empty
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	chmod 755 "$T_DIR"	# mktemp's 0700 would lock nobody out of everything
	mkdir locked
	cp "$TOP_SRCDIR/tests/data/lkml-2002/2.4.18.results" locked/
	chmod 700 locked
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$CONTEST" report -d "$PWD/locked" >out 2>err
	ok_eq "an unreadable results directory: exit status" "$?" 1
	ok "it says why" grep -q "cannot read results directory .*locked: Permission denied" err
	chmod 755 locked
	chmod 600 locked/2.4.18.results
	cp "$TOP_SRCDIR/tests/data/lkml-2002/2.4.19.results" locked/
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$CONTEST" report -d "$PWD/locked" >out 2>err
	ok_eq "an unreadable results file: the others are reported" "$?" 0
	ok "the unreadable file is named" grep -q "locked/2.4.18.results: cannot read: Permission denied" err
	ok "the readable one has its rows" grep -q "^2.4.19 " out
	ok "the unreadable one has none" sh -c "! grep -q '^2.4.18 ' out"
else
	skip "an unreadable directory needs root, setpriv and the user nobody"
	skip "an unreadable directory needs root, setpriv and the user nobody"
	skip "an unreadable file needs root, setpriv and the user nobody"
	skip "an unreadable file needs root, setpriv and the user nobody"
	skip "an unreadable file needs root, setpriv and the user nobody"
	skip "an unreadable file needs root, setpriv and the user nobody"
fi

# labels naming paths are looked up inside the results directory only
mkdir res sub
cp "$TOP_SRCDIR/tests/data/lkml-2002/2.4.18.results" sub/outside.results
cp "$TOP_SRCDIR/tests/data/lkml-2002/2.4.19.results" res/
for label in ../sub/outside ../outside /etc/passwd "sub/outside"; do
	refused "report of label '$label'" 1 "no valid runs stored for label" report -d res "$label"
done
"$CONTEST" report -d res ../outside 2.4.19 >out 2>err
ok_eq "a missing label beside a stored one: exit status 1" "$?" 1
ok "the missing one is named, with the labels that have runs" \
	grep -q "no valid runs stored for label '../outside' (labels with runs: 2.4.19)" err
ok "and no table as if it were complete" test ! -s out

done_testing
