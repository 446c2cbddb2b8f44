#!/bin/sh
# The house: folders, one file per load, every source in the build,
# nothing generated committed, and a README that opens with two commands.
. "$TOP_SRCDIR/tests/lib.sh"

top=$TOP_SRCDIR
for d in src loads tests docs bench; do
	ok "folder $d exists" test -d "$top/$d"
done

readme="$top/README.md"
ok "README.md exists" test -f "$readme"
# the first two commands, in the first code block
sed -n '/^```/,/^```/p' "$readme" | sed '1d;/^```/,$d' | grep -v '^#' | grep -v '^$' >cmds
ok_eq "the README opens with two commands" "$(wc -l <cmds)" 2
ok "the first builds and runs the benchmark" grep -q "^./bootstrap && ./configure && make && ./contest$" cmds
ok "the second builds and passes the tests" grep -qxF './bootstrap && ./configure && make -j"$(($(nproc) + 1))" check' cmds
ok ".ci/run runs the README's test command" grep -qF 'make -j"$(($(nproc) + 1))" check' "$top/.ci/run"

for f in "$top"/src/*/*.c "$top"/loads/*.c; do
	rel=${f#"$top"/}
	ok "$rel is in Makefile.am" grep -q "[ 	]$rel\\b" "$top/Makefile.am"
done
for f in "$top"/loads/*.c; do
	name=$(basename "$f" .c)
	case $name in load | registry | runtype) continue ;; esac
	ok "loads/$name.c ends with its load_ops" \
		awk '/^}$/ { fn = NR } /^const struct load_ops [a-z_]*_load = {$/ { ops = NR }
		     END { exit !(ops && ops > fn) }' "$f"
	ok "loads/$name.c is in the registry" grep -q "&${name}_load" "$top/loads/registry.c"
done

# test hooks live in tests/contest-hooked only (#ifdef CONTEST_TEST_HOOKS)
ok "the shipped contest holds no test hook (no CONTEST_TEST_ name in it)" \
	sh -c '! grep -q -a CONTEST_TEST_ "$CONTEST"'
ok "the test build does" grep -q -a CONTEST_TEST_ "$CONTEST_HOOKED"

# ---- the licence: GPL-2.0-or-later, named everywhere a reader or a packager looks
ok "COPYING is the GPL, version 2" grep -q "GNU GENERAL PUBLIC LICENSE" "$top/COPYING"
ok "... version 2, June 1991" grep -q "Version 2, June 1991" "$top/COPYING"
ok "the README names the licence" grep -q "GPL-2.0-or-later" "$readme"
ok "the man page names it" grep -q "GPL-2.0-or-later" "$top/docs/contest.1"
ok "--version names it" sh -c '"$1" --version | grep -q "GPL-2.0-or-later"' sh "$CONTEST"
# every source file of src/ loads/ tests/ carries the SPDX line: C, headers,
# scripts, Python
(cd "$top" && find src loads tests -type f \( -name '*.c' -o -name '*.h' \
	-o -name '*.sh' -o -name '*.py' \) ! -path 'tests/tmp/*' | sort) >sources
: >unlicensed
while read -r f; do
	grep -q "SPDX-License-Identifier: GPL-2.0-or-later" "$top/$f" || echo "$f" >>unlicensed
done <sources
ok "there are source files" test "$(wc -l <sources)" -gt 100
ok_eq "every source file has an SPDX-License-Identifier line" \
	"$(cd "$top" && grep -l SPDX-License-Identifier $(cat "$T_DIR/sources") | wc -l)" \
	"$(wc -l <sources)"
ok "none is missing one (the list: unlicensed)" sh -c '! test -s unlicensed || { sed "s/^/# no SPDX line: /" unlicensed | head -20; false; }'

# ---- installed: the program, the man pages and docs/formats.md
if [ -w "$TOP_BUILDDIR" ]; then
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP_BUILDDIR" install \
		DESTDIR="$T_DIR/inst" >install.log 2>&1
	ok "make install DESTDIR=... works" test "$?" = 0
	ok "it installs the program" sh -c 'find inst -path "*/bin/contest" | grep -q .'
	# the overview, a page per command and contest-loads.7, each where man finds it
	ok "it installs the man pages (docs/*.1 in man1, docs/*.7 in man7)" sh -c '
		n=0
		for p in "$1"/docs/*.1 "$1"/docs/*.7; do
			s=${p##*.}
			find inst -path "*/man$s/${p##*/}" | grep -q . || { echo "not installed: $p"; exit 1; }
			n=$((n + 1))
		done
		test $n -gt 2' sh "$top"
	ok "it installs docs/formats.md" sh -c 'find inst -path "*/doc/contest/formats.md" | grep -q .'
else
	skip "the build directory is read-only: make install not tried"
fi

if command -v git >/dev/null && git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files >tracked
	for gen in configure Makefile.in aclocal.m4 config.h.in build-aux/tap-driver.sh; do
		ok "$gen is not committed" sh -c "! grep -qx '$gen' tracked"
	done
else
	skip "not a git checkout: cannot check what is committed"
fi

done_testing
