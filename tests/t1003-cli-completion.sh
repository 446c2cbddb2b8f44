#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (contrib/completion/contest.bash) completes commands,
# options, values, run types and labels from the contest it completes, and
# offers nothing that contest does not have: every command it offers runs,
# every option it offers is in its command's man page, every --format it
# offers is taken.  Run in a bash without bash-completion and, where it is
# installed, with it.
. "$TOP_SRCDIR/tests/lib.sh"

command -v bash >/dev/null 2>&1 || skip_all "no bash to source the completion in"
COMPLETION=${COMPLETION:-$TOP_SRCDIR/contrib/completion/contest.bash}

# campaign IDs are read under $CONTEST_ROOT/var/lib/contest/campaign (the
# completion honours the test builds' root prefix; unset, it is /)
# what bash offers for LINE (a TAB at its end), one a line, sorted; words
# split as readline splits them, at blanks and at = and :
cat >complete.bash <<'SH'
[ -n "${BASH_COMPLETION:-}" ] && . "$BASH_COMPLETION"
. "$COMPLETION"
COMP_LINE=$1 COMP_POINT=${#1}
read -ra COMP_WORDS <<<"$(printf '%s' "$COMP_LINE" | sed 's/\([=:]\)/ \1 /g')"
[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_contest_complete contest
printf '%s\n' "${COMPREPLY[@]}" | sort
SH
tab() { COMPLETION=$COMPLETION bash complete.bash "$1" 2>&1; }
words() { tab "$1" | tr '\n' ' ' | sed 's/ $//'; }

mkdir res
cp "$TOP_SRCDIR"/tests/data/lkml-2002/2.4.18.results "$TOP_SRCDIR"/tests/data/lkml-2002/2.5.47.results res/
ln -s "$CONTEST" contest

modes=plain
for f in /usr/share/bash-completion/bash_completion; do
	[ -r "$f" ] && modes="plain $f"
done
for mode in $modes; do
	if [ "$mode" = plain ]; then
		unset BASH_COMPLETION
		m="without bash-completion"
	else
		BASH_COMPLETION=$mode
		export BASH_COMPLETION
		m="with bash-completion"
	fi
	ok_eq "$m: contest rep<TAB> is report" "$(words './contest rep')" "report"
	ok_eq "$m: contest run --pro<TAB> is --probe and --procs" \
		"$(words './contest run --pro')" "--probe --procs"
	ok_eq "$m: contest report -d DIR <TAB> lists DIR's labels" \
		"$(words './contest report -d res ')" "2.4.18 2.5.47"
	ok_eq "$m: --results=DIR works as -d DIR" \
		"$(words './contest report --results=res --baseline 2.4')" "2.4.18"
	ok_eq "$m: contest relabel -d DIR <TAB> lists DIR's labels" \
		"$(words './contest relabel -d res ')" "2.4.18 2.5.47"
	ok_eq "$m: contest relabel --m<TAB> is --merge" "$(words './contest relabel --m')" "--merge"
	ok_eq "$m: contest report <TAB> with no results directory offers no label" \
		"$(words './contest report ')" ""
	ok_eq "$m: --probe= offers its values" "$(words './contest run --probe=')" "full light"
	ok_eq "$m: --type completes the last item of a list" \
		"$(words './contest report --type process_load,xt')" "process_load,xtar_load"
	ok_eq "$m: -w ker<TAB> is kernel:" "$(words './contest run -w ker')" "kernel:"
	mkdir -p tree/linux-6.1
	ok_eq "$m: -w kernel:DIR completes the directory after the colon" \
		"$(words './contest run -w kernel:tree/li')" "tree/linux-6.1"
	ok_eq "$m: --vary offers its keys with =" \
		"$(words './contest compare --vary auto')" "autogroup="
	ok_eq "$m: a load name after contest load" "$(words './contest load mem')" "mem_load"
	ok_eq "$m: contest -r is report" "$(words './contest -r --stat')" "--stats"
	ok_eq "$m: contest campaign <TAB> lists its commands" \
		"$(words './contest campaign ')" "abort plan resume start status"
	mkdir -p root/var/lib/contest/campaign/20261206-070000 root/var/lib/contest/campaign/20261206-080000
	ok_eq "$m: contest campaign status <TAB> lists the campaigns" \
		"$(CONTEST_ROOT=$T_DIR/root words './contest campaign status ')" "20261206-070000 20261206-080000"
done

# nothing offered that contest lacks
"$CONTEST" list | sed -n 's/^\([a-z][a-z_]*\) .*/\1/p' >runtypes
ok "contest list lists run types" grep -qx noload runtypes
cmds=$(tab './contest ' | grep -vxF -f runtypes)
ok "commands are offered" test -n "$cmds"
bad=
for c in $cmds; do
	"$CONTEST" "$c" --help 2>&1 | head -n 1 | grep -q "^Usage: contest $c" || bad="$bad $c"
done
ok_eq "every command offered is one contest has (its own 'Usage: contest CMD')" "$bad" ""
bad=
for t in $(tab './contest run '); do
	grep -qx "$t" runtypes || bad="$bad $t"
done
ok_eq "every run type offered is one 'contest list' lists" "$bad" ""
# the options each command's page defines, as t1002 reads them
bad=
for c in run compare report plot load list env merge relabel; do
	awk 'prev == ".TP" && /^\.BR* / { print } { prev = $0 }' "$TOP_SRCDIR/docs/contest-$c.1" |
		grep -o -- '\\-\\-[a-z][a-z\\-]*' | sed 's/\\-/-/g' | sort -u >man-options
	for o in $(tab "./contest $c --"); do
		grep -qxF -- "$o" man-options || bad="$bad $c:$o"
	done
done
ok_eq "every option offered is in its command's man page (docs/contest-COMMAND.1)" "$bad" ""
bad=
for f in $(tab './contest report --format '); do
	"$CONTEST" report -d res --format "$f" >/dev/null 2>&1 || bad="$bad $f"
done
ok_eq "every --format offered is one report takes" "$bad" ""
done_testing
