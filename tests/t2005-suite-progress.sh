#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a suite shows: on a terminal (a pseudo-terminal from script(1)) a
# live line with the ETA, erased before every message and at the end and on
# SIGINT; with stderr in a file one plain line per run and no control
# characters; with --quiet only the table.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"
command -v script >/dev/null || skip_all "script (util-linux) is not installed: no pseudo-terminal"
script -qec true /dev/null </dev/null >/dev/null 2>&1 ||
	skip_all "this script(1) cannot run a command (-qec): not util-linux's?"

esc=$(printf '\033')
cr=$(printf '\r')
abs=$(cd "$T_DIR" && pwd -P)	# the results are named from /, symlinks resolved
# the smallest builtin workload and a short lead time: what is shown does not
# depend on how long a build takes (the live line is drawn at every change
# of phase, "compiling" with its Loads too, and then once a second), and
# process_load burns both CPUs through the lead time and the build
quick="--quick --scale 1 --lead-time 0.2 -n 1"
# but the interrupted suite's noload build is to be under way when the
# SIGINT comes, after a poll of up to 0.1 s and a read of the typescript:
# builds of --scale 4 (about 0.7 s), and only the warm-up and part of the
# noload build are run
longer="--quick --scale 4 --lead-time 0.5 -n 1"

# on_tty FILE ARGS...: contest ARGS under a pseudo-terminal, its output in
# FILE and, cut at every \r so that each redraw is a line, in FILE.lines
on_tty() {
	f=$1; shift
	TERM=xterm script -qfec "$CONTEST $*" "$f" </dev/null >/dev/null 2>&1
	tr '\r' '\n' <"$f" >"$f.lines"
}

# ---- on a terminal ------------------------------------------------------
mkdir tty && cd tty || exit 99
on_tty ../tty.ts $quick -k tty noload process_load
cd ..
ok "the suite under a pseudo-terminal exits 0" grep -q 'COMMAND_EXIT_CODE="0"' tty.ts
ok "a live line: step, run, phase and ETA" \
	grep -q "^$esc\[K\[1/2\] noload round 1/1  [a-z ]* [0-9]* s  ETA [0-9]" tty.ts.lines
ok "while a load runs it shows the Loads done" \
	grep -q "^$esc\[K\[2/2\] process_load round 1/1  compiling [0-9]* s  Loads [0-9.]*  ETA " tty.ts.lines
ok_eq "each run's line comes on an erased line" \
	"$(grep -c "^$esc\[Kcontest: \[[12]/2\] [a-z_]* round 1/1: Time " tty.ts.lines)" 2
ok "the table starts on a clean line: the live line was erased before it" \
	grep -q '^noload:$' tty.ts.lines
ok "no live line is left after the last message" \
	sh -c "grep -v '^\$' tty.ts.lines | grep -v '^Script done' | tail -n 1 | grep -q '^contest: .* runs added to '"
# interrupted, on a terminal 40 columns wide: the live line is cut to fit
# (a wrapped line could not be erased) and, on SIGINT, is replaced by what
# was kept (0 runs, or 1 where the noload's short build ended between the
# poll that saw it and the signal, as it can on a slow machine)
# contest's pid and exit status come in files from the shell script(1)
# runs: no scan of /proc, which on a busy CI machine (hundreds of
# processes, a readlink each) took so long that the wait below ran for the
# test's whole 600 s twice; and the status is known even if script itself
# does not end.  The waits are bounded by the clock.
mkdir int && cd int || exit 99
TERM=xterm script -qfec "stty cols 40; sh -c 'echo \$\$ >\"$abs/int.pid\"; exec $CONTEST $longer -k int noload process_load'; echo \$? >'$abs/int.rc'" \
	../int.ts </dev/null >/dev/null 2>&1 &
spid=$!
cd ..
cpid=
i=0
end=$(($(date +%s) + 60))
while [ "$(date +%s)" -lt $end ]; do
	[ -z "$cpid" ] && cpid=$(cat int.pid 2>/dev/null)
	[ -n "$cpid" ] && tr '\r' '\n' <int.ts 2>/dev/null | grep -q '1/2\] noload round 1/1  compiling' && break
	sleep 0.1
done
[ "$(date +%s)" -lt $end ] || i=600
if [ -n "$cpid" ] && [ $i -lt 600 ]; then
	kill -INT "$cpid"
	wait_until test -s int.rc
	# script(1) ends with its shell, once contest has: within 10 s of the
	# signal, or what runs on is shown, and script and contest are killed
	i=0
	while kill -0 "$spid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$spid" 2>/dev/null; then
		echo "# script(1) still runs 10 s after the SIGINT$(test -s int.rc || echo ", contest has not ended"):"
		ps -e -o pid,ppid,sid,stat,pcpu,wchan:20,tty,args 2>&1 |
			awk -v s="$spid" 'NR == 1 || $1 == s || $2 == s || $7 ~ /^pts/' | sed 's/^/#   /'
		for p in $(procs_in "$T_DIR/int"); do
			echo "#   in int: $(ps -o pid=,stat=,pcpu=,wchan:20=,args= -p "$p")"
		done
		kill "$spid" 2>/dev/null
		sleep 1
		kill -s KILL "$spid" "$cpid" 2>/dev/null
	fi
	wait $spid
	ok_eq "SIGINT during a run: exit status 130" "$(cat int.rc 2>/dev/null)" 130
	tr '\r' '\n' <int.ts >int.ts.lines
	# the message of what was kept starts on a clean line: either the
	# live line is erased just before it, or an earlier message (a complete
	# line) took its place and it follows that message's newline; a live
	# line left on the screen before it, with or without a newline, fails
	ok "the live line is erased and replaced by what was kept" \
		sh -c "awk -v e='$esc' '
			{ line[NR] = \$0 }
			END {
				for (i = 1; i <= NR; i++) {
					m = line[i]
					erased = index(m, e \"[K\") == 1
					if (erased)
						m = substr(m, 4)
					if (m !~ /^contest: interrupted by SIGINT: [0-9]+ runs? kept in /)
						continue
					if (erased)
						exit 0
					for (j = i - 1; j > 0 && line[j] == \"\"; j--)
						;
					exit !(j < i - 1 && j > 0 && index(line[j], e \"[K[\") != 1)
				}
				exit 1
			}' int.ts.lines || { tail -n 12 int.ts.lines | cat -v; exit 1; }"
	ok "the live line is cut to the terminal's width less one" \
		awk -v e="$esc" 'index($0, e "[K[") == 1 && length($0) > 3 + 39 { bad = 1 } END { exit bad }' int.ts.lines
else
	# every prerequisite is there (script ran above): a suite that never
	# reaches its first build within 60 s is stalled, and that fails
	kill "$spid" 2>/dev/null
	[ -n "$cpid" ] && kill -INT "$cpid" 2>/dev/null
	wait $spid
	ok "the interrupted suite showed its first build within 60 s (contest pid ${cpid:-not found})" false
	tr '\r' '\n' <int.ts 2>/dev/null | tail -n 5 | sed 's/^/#   /'
fi
ok_eq "nothing of the interrupted suite runs on" "$(procs_in "$T_DIR/int")" ""

# ---- stderr to a file -----------------------------------------------------
mkdir plain && cd plain || exit 99
"$CONTEST" $quick -k plain noload process_load >../plain.out 2>../plain.err
ok_eq "the suite with stderr to a file exits 0" "$?" 0
cd ..
ok "no escape character on stderr" sh -c "! grep -q '$esc' plain.err"
ok "no carriage return on stderr" sh -c "! grep -q '$cr' plain.err"
ok_eq "one line per finished run" "$(grep -c '^contest: \[[12]/2\] [a-z_]* round 1/1: ' plain.err)" 2
ok "noload's line: Time, CPU%, valid" \
	grep -q '^contest: \[1/2\] noload round 1/1: Time [0-9.]* s, CPU% [0-9]*, valid$' plain.err
ok "a load's line: Time, CPU%, Loads, LCPU%, valid" \
	grep -q '^contest: \[2/2\] process_load round 1/1: Time [0-9.]* s, CPU% [0-9]*, Loads [0-9.]*, LCPU% [0-9]*, valid$' plain.err
ok "the estimate once the warm-up build is timed" \
	grep -q '^contest: warm-up build took [0-9.]* s: the timed runs should take about [0-9]' plain.err
ok "at the end: the table of this label on stdout" grep -q '^plain  *\[1\] ' plain.out
ok "the results file and how to compare" \
	grep -q "^contest: 2 valid and 0 invalid runs added to $abs/plain/contest-results/plain.results; after the reboot into the next kernel, run contest with -d $abs/plain/contest-results, then 'contest report -d $abs/plain/contest-results' compares them$" plain.err
(cd plain && "$CONTEST" $quick --dry-run -k plain noload process_load) >plain.plan 2>&1
ok "a dry run after it estimates from those runs" \
	grep -q '^    estimate: about [0-9]* [smh].*, from earlier runs of this workload$' plain.plan

# ---- --quiet --------------------------------------------------------------
mkdir quiet && cd quiet || exit 99
on_tty ../quiet.ts $quick --quiet -k quiet noload
cd ..
ok "--quiet on a terminal exits 0" grep -q 'COMMAND_EXIT_CODE="0"' quiet.ts
ok "--quiet: no live line" sh -c "! grep -q '$esc' quiet.ts"
grep -v '^Script ' quiet.ts.lines | grep -v '^$' >quiet.shown
ok_eq "--quiet: only the table and its latency line, four lines" "$(wc -l <quiet.shown)" 4
ok "--quiet: its heading, header, row and the probe's p99 line" \
	sh -c "sed -n 1p quiet.shown | grep -q '^noload:\$' &&
	       sed -n 2p quiet.shown | grep -q '^Kernel  *\[runs\]' &&
	       sed -n 3p quiet.shown | grep -q '^quiet  *\[1\] ' &&
	       sed -n 4p quiet.shown | grep -q '^Latency p99 (ms), audio/video: quiet [0-9.-]*/[0-9.-]*.\$'"

done_testing
