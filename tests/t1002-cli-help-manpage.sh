#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --help, the man pages and the parser agree: every option and command of one
# is in the other, with the same ranges and defaults; COMMAND --help shows one
# command, and its page, contest-COMMAND.1, has the options it lists and no
# other (as git and perf have a page per command: contest.1 the overview,
# contest-loads.7 the run types); an option in several pages reads the same
# in each; contest.1 has the sections a packager looks for.
. "$TOP_SRCDIR/tests/lib.sh"

export LC_ALL=C
docs=$TOP_SRCDIR/docs
man="$docs/contest.1"
commands="run compare campaign report plot load list merge relabel env"
pages="$man"
for c in $commands; do
	pages="$pages $docs/contest-$c.1"
done
loads7=$docs/contest-loads.7
# the options a page defines: the --names of the line after each .TP
man_options() {
	awk 'prev == ".TP" && /^\.BR* / { print } { prev = $0 }' "$@" |
		grep -o -- '\\-\\-[a-z][a-z\\-]*' | sed 's/\\-/-/g' | sort -u
}
# the options a --help defines: the first --name of each option line
help_options() {
	sed -n 's/^  \(-[a-zA-Z], \)\{0,1\} *\(--[a-z][a-z-]*\).*/\2/p' "$1" | sort -u
}
"$CONTEST" --help >help 2>err
ok_eq "--help exits 0" "$?" 0
ok "--help prints nothing on stderr" test ! -s err
ok "--help shows the usage" grep -q "^Usage:" help

help_options help >options
ok "--help lists options" test "$(wc -l <options)" -gt 10
# shellcheck disable=SC2086
man_options $pages >man-options
ok "the man pages define options" test "$(wc -l <man-options)" -gt 10
for o in $(cat options); do
	ok "a man page documents $o" grep -qxF -- "$o" man-options
done
for o in $(cat man-options); do
	ok "$o of the man pages is in --help" grep -qxF -- "$o" options
done
for c in $commands; do
	ok "man page documents the $c command" grep -q "^\.B $c\$\|^\.BR $c \|^\.SS $c\|contest $c" "$man"
	ok "--help lists the $c command" grep -q "^  contest $c " help
done

# ---- a page per command: COMMAND --help and contest-COMMAND.1 agree ----------
for c in $commands; do
	page=$docs/contest-$c.1
	ok "contest-$c.1 exists" test -s "$page"
	"$CONTEST" "$c" --help >"help-$c" 2>/dev/null
	help_options "help-$c" >"options-$c"
	man_options "$page" >"man-options-$c" 2>/dev/null
	for o in $(cat "options-$c"); do
		ok "contest-$c.1 documents $o, which $c --help lists" grep -qxF -- "$o" "man-options-$c"
	done
	for o in $(cat "man-options-$c"); do
		ok "$o of contest-$c.1 is in $c --help" grep -qxF -- "$o" "options-$c"
	done
	ok "contest-$c.1 is named contest-$c" grep -q "^contest\\\\-$c \\\\- " "$page"
	ok "contest-$c.1 has NAME, SYNOPSIS, DESCRIPTION, OPTIONS and SEE ALSO" sh -c '
		for s in NAME SYNOPSIS DESCRIPTION OPTIONS "SEE ALSO"; do
			grep -qx ".SH $s" "$1" || { echo "no .SH $s"; exit 1; }
		done' sh "$page"
	ok "contest-$c.1 names contest(1) in SEE ALSO" sh -c \
		'sed -n "/^\.SH SEE ALSO/,/^\.SH/p" "$1" | grep -q "^\.BR contest (1)"' sh "$page"
	ok "contest.1 points to contest-$c(1)" grep -q "^\.BR contest\\\\-$c (1)" "$man"
	ok "make install installs contest-$c.1 (Makefile.am)" grep -q "[ 	]docs/contest-$c\.1\>" "$TOP_SRCDIR/Makefile.am"
done
# the run types: contest-loads.7 describes every one 'contest list' lists
ok "contest-loads.7 exists" test -s "$loads7"
ok "make install installs contest-loads.7 (Makefile.am)" grep -q "[ 	]docs/contest-loads\.7\>" "$TOP_SRCDIR/Makefile.am"
ok "contest.1 points to contest-loads(7)" grep -q "^\.BR contest\\\\-loads (7)" "$man"
"$CONTEST" list >list 2>/dev/null
awk 'NR > 1 && /^[a-z]/ { print $1 } /^$/ { exit }' list >runtypes
ok "contest list lists run types" test "$(wc -l <runtypes)" -gt 5
awk 'prev == ".TP" { print } { prev = $0 }' "$loads7" >loads7-tags
for t in $(cat runtypes); do
	ok "contest-loads.7 describes $t" grep -q "^\.BR* \(.* \)\{0,1\}$t\( \|\$\)" loads7-tags
done
# every page renders without a warning
if command -v groff >/dev/null; then
	for p in $pages "$loads7"; do
		ok "$(basename "$p") renders without a warning (groff -ww)" sh -c \
			'w=$(groff -man -Tutf8 -ww -z "$1" 2>&1); [ -z "$w" ] || { printf "%s\n" "$w"; exit 1; }' sh "$p"
	done
else
	skip "groff is not installed: the pages' warnings not looked for"
fi

# ---- ranges and defaults ----------------------------------------------------
# The man page rendered, one line per option: "--name<TAB>its paragraph".
if command -v nroff >/dev/null; then
	for p in $pages; do
		nroff -man -rLL=4000n "$p" 2>/dev/null | sed 's/.\x08//g' | awk '
		/^       -/ { n = split($0, w, /[ ,]+/); names = ""
			     for (i = 1; i <= n; i++) if (w[i] ~ /^--[a-z]/) names = names " " w[i]
			     desc = ""; next }
		names != "" && NF { desc = desc " " $0; next }
		names != "" { n = split(names, w, " ")
			      for (i = 1; i <= n; i++) { gsub(/[ \t]+/, " ", desc); print w[i] "\t" desc }
			      names = "" }' >"man-text-$(basename "$p")"
	done
	cat man-text-* >man-text
	ok "the man pages render, one paragraph per option" test "$(wc -l <man-text)" -gt 10
	# an option several commands take is described in each one's page, in
	# the same words (but --latency: report's tables, plot's chart)
	for p in man-text-*; do
		cut -f1 "$p" | sort -u
	done | sort | uniq -d >shared
	ok "options are shared between pages" test "$(wc -l <shared)" -gt 10
	for o in $(cat shared); do
		[ "$o" = --latency ] && continue
		ok "$o reads the same in every page that has it" test "$(awk -F '\t' -v o="$o" \
			'$1 == o && $2 != ""' man-text | sort -u | wc -l)" = 1
	done
	for o in $(cat options); do
		line=$(grep -- "^ *\(-[a-zA-Z], \)\{0,1\}$o\( \|\$\)" help | head -1)
		# its paragraph (the same in every page that has it)
		text=$(awk -F '\t' -v o="$o" '$1 == o && $2 != "" { print $2; exit }' man-text)
		# the range the parser enforces, from its message for a bad value
		# (an unknown option after it: whatever parses, nothing runs)
		for c in run report list load compare campaign plot env; do
			"$CONTEST" $c "$o" x --no-such-option >/dev/null 2>perr
			grep -q "wants" perr && break
		done
		range=$(sed -n 's/.* from \(-\{0,1\}[0-9][0-9.]*\) to \([0-9][0-9.]*\)[,. ]*[a-z(]*.*/\1 to \2/p' perr)
		if [ -n "$range" ]; then
			ok "$o: the man page gives the parser's range, $range" \
				sh -c 'printf "%s\n" "$1" | grep -q -- "[ (]$2[ ,;)]"' sh "$text" "$range"
			hrange=$(printf '%s\n' "$line" | sed -n 's/.*[( ]\(-\{0,1\}[0-9][0-9.]* to [0-9][0-9.]*\).*/\1/p')
			[ -z "$hrange" ] || ok_eq "$o: --help gives the parser's range" "$hrange" "$range"
		fi
		# the default --help states is the man page's
		def=$(printf '%s\n' "$line" | sed -n 's/.*(default:\{0,1\} \([^;,)]*\).*/\1/p')
		if [ -n "$def" ]; then
			ok "$o: the man page gives --help's default, $def" \
				sh -c 'printf "%s\n" "$1" | grep -qF -- "default $2" ||
				       printf "%s\n" "$1" | grep -qF -- "default: $2"' sh "$text" "$def"
		fi
	done
else
	skip "nroff is not installed: ranges and defaults not compared"
fi

# ---- the sections a packager and a reader look for ------------------------------
for sec in ENVIRONMENT "EXIT STATUS" "SEE ALSO" AUTHORS "REPORTING BUGS" COPYRIGHT; do
	ok "the man page has $sec" grep -q "^\.SH \"\{0,1\}$sec\"\{0,1\}\$" "$man"
done
sed -n '/^\.SH ENVIRONMENT/,/^\.SH/p' "$man" >envsec
# the variables the shipped binary reads (the strings in it); those only the
# test build reads (#ifdef CONTEST_TEST_HOOKS) are for tests, not users
tr -c '[:print:]' '\n' <"$CONTEST" >strings
for v in $(grep -ho 'getenv("[A-Z_]*")' "$TOP_SRCDIR"/src/*/*.c "$TOP_SRCDIR"/loads/*.c |
	   sed 's/getenv("\(.*\)")/\1/' | sort -u); do
	if grep -qx "$v" strings; then
		ok "ENVIRONMENT names $v, which the code reads" grep -q "^\.BR* .*\<$v\>" envsec
	else
		# shellcheck disable=SC2086
		ok "$v is read by the test build only, and not offered to users" \
			sh -c 'v=$1; shift; ! grep -q "$v" "$@"' sh "$v" $pages "$loads7"
	fi
done
for v in $(grep -ho 'setenv("[A-Z_]*"' "$TOP_SRCDIR"/src/*/*.c | sed 's/.*("\(.*\)"/\1/' | sort -u); do
	ok "ENVIRONMENT names $v, which contest sets" grep -q "^\.BR* .*\<$v\>" envsec
done
sed -n '/^\.SH SEE ALSO/,/^\.SH/p' "$man" >seealso
for ref in mmtests 'cyclictest (8)' schbench 'perf\\-sched (1)' 'proc (5)'; do
	ok "SEE ALSO names $ref" grep -q "$ref" seealso
done
sed -n '/^\.SH EXIT STATUS/,/^\.SH/p' "$man" >exitsec
for st in 0 1 2 3 4 130 143; do
	ok "EXIT STATUS gives $st" grep -q "^\.BR* .*\<$st\>" exitsec
done

# ---- COMMAND --help: that command alone -------------------------------------------
"$CONTEST" --version >v
ok "--version prints the package version" grep -q "^contest [0-9]" v
ok "--version names the licence" grep -q "GPL-2.0-or-later" v
"$CONTEST" report --help >h2 2>err
ok_eq "report --help exits 0" "$?" 0
ok "report --help: report's usage" grep -q "^Usage: contest report " h2
ok "report --help: report's options" grep -q -- "--baseline LABEL" h2
ok "report --help: not run's" sh -c "! grep -q -- '--quick' h2"
ok "report --help: no other command's usage" sh -c "! grep -q 'contest run' h2"
"$CONTEST" compare --help >h3
ok "compare --help: its own options and run's" sh -c "grep -q -- '--vary' h3 && grep -q -- '--quick' h3"
ok "compare --help: but not -k" sh -c "! grep -q -- '--label' h3"
"$CONTEST" relabel --help >h5 2>err
ok_eq "relabel --help exits 0" "$?" 0
ok "relabel --help: its usage, -d and --merge" sh -c \
	"grep -q '^Usage: contest relabel ' h5 && grep -q -- '--results DIR' h5 && grep -q -- '--merge' h5"
ok "relabel --help: not report's options" sh -c "! grep -q -- '--baseline' h5"
"$CONTEST" -r --help >h4
ok "-r --help is report's help" cmp -s h2 h4
ok "--help alone shows every command" test "$(grep -c '^  contest [a-z]' help)" -ge 8
# the binary under test is not the installed one: the manual in the tree is named
for hp in help:contest h2:contest-report; do
	h=${hp%%:*} p=${hp#*:}
	ok "$h: the manual names docs/$p.1 (contest is not installed)" \
		grep -q "^Manual: man $p .*docs/$p\.1" $h
done

done_testing
