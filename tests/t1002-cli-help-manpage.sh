#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --help, the man pages and the parser agree: every option and command of one
# is in the other, with the same ranges and defaults; COMMAND --help shows one
# command; contest.1 (the overview; a page per command beside it) has the
# sections a packager looks for.
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
for h in help h2; do
	ok "$h: the manual names docs/contest.1 (contest is not installed)" \
		grep -q "^Manual: man contest.*docs/contest\.1" $h
done

done_testing
