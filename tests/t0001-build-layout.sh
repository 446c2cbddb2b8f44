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
ok "the second builds and passes the tests" grep -qxF './bootstrap && ./configure && make -j"$(nproc)" check' cmds

for f in "$top"/src/*.c "$top"/loads/*.c; do
	rel=${f#"$top"/}
	ok "$rel is in Makefile.am" grep -q "[ 	]$rel\\b" "$top/Makefile.am"
done
for f in "$top"/loads/*.c; do
	name=$(basename "$f" .c)
	[ "$name" = registry ] && continue
	ok "loads/$name.c ends with its load_ops" \
		awk '/^}$/ { fn = NR } /^const struct load_ops [a-z_]*_load = {$/ { ops = NR }
		     END { exit !(ops && ops > fn) }' "$f"
	ok "loads/$name.c is in the registry" grep -q "&${name}_load" "$top/loads/registry.c"
done

if command -v git >/dev/null && git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files >tracked
	for gen in configure Makefile.in aclocal.m4 config.h.in build-aux/tap-driver.sh; do
		ok "$gen is not committed" sh -c "! grep -qx '$gen' tracked"
	done
else
	skip "not a git checkout: cannot check what is committed"
fi

done_testing
