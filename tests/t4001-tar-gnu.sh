# SPDX-License-Identifier: GPL-2.0-or-later
# t4001-tar-gnu.sh - GNU tar reads the archives of src/lib/tar-write.c and
# src/lib/tar-extract.c reads GNU tar's: names, contents, types, modes,
# mtimes and links survive both ways; hostile and damaged archives are
# refused.
. "$TOP_SRCDIR/tests/lib.sh"

: "${TAR_TOOL:?run the tests through make check}"

version=$(tar --version 2>/dev/null | head -n 1)
case $version in
*"GNU tar"*) ;;
*) skip_all "GNU tar is needed as the oracle; tar --version says: ${version:-nothing}" ;;
esac
find . -maxdepth 0 -printf '' 2>/dev/null || skip_all "GNU find (-printf) is needed"
diff -r --no-dereference . . >/dev/null 2>&1 || skip_all "GNU diff (--no-dereference) is needed"

export LC_ALL=C
TOP=$(pwd)
root=0
[ "$(id -u)" = 0 ] && root=1

# ---- the source tree -----------------------------------------------------

rep() {	# rep CHAR N: CHAR repeated N times
	printf "%0${2}d" 0 | tr 0 "$1"
}

make_tree() {
	mkdir src && cd src || return 1
	c30=$(rep c 30)
	c150=$(rep L 150)
	# a path over 100 bytes that ustar can split into prefix and name
	mkdir -p "split/$(rep d 60)" &&
	printf 'split\n' >"split/$(rep d 60)/$(rep f 60)" &&
	# a component of 150 bytes, as a directory and as a file
	mkdir -p "longdir/$c150" &&
	printf 'long component\n' >"longdir/$c150/file" &&
	printf 'long file\n' >"longdir/$c150.txt" &&
	# nesting past 255 bytes that no prefix/name split can hold
	deep="deep/$c30/$c30/$c30/$c30/$c30/$c30/$c30/$c30/$c30" &&
	mkdir -p "$deep" &&
	printf 'deep\n' >"$deep/$(rep e 40)" &&
	# sizes around block and buffer boundaries, and a few MB
	head -c 5000001 /dev/urandom >big &&
	head -c 511 big >b511 && head -c 512 big >b512 && head -c 513 big >b513 &&
	head -c 65536 big >b65536 && head -c 65537 big >b65537 &&
	: >empty-file &&
	# modes
	printf 'secret\n' >mode600 && chmod 600 mode600 &&
	printf '#!/bin/sh\n' >mode755 && chmod 755 mode755 &&
	printf 'read only\n' >mode444 && chmod 444 mode444 &&
	printf 'group\n' >mode640 && chmod 640 mode640 &&
	mkdir private && printf 'p\n' >private/inside && chmod 700 private &&
	mkdir rodir && printf 'r\n' >rodir/inside &&
	mkdir sticky && chmod 1777 sticky &&
	# empty directories
	mkdir -p empty-dir nested/empty/inner &&
	# symlinks: relative, dangling, to a directory, absolute, long target
	ln -s mode600 rel-link &&
	ln -s does/not/exist dangling &&
	ln -s split dir-link &&
	ln -s /etc/passwd abs-link &&
	ln -s "longdir/$c150/file" long-link &&
	# a hard link
	ln b512 hard-b512 &&
	# names with spaces and bytes beyond ASCII
	printf 'utf8\n' >"$(printf 'with space caf\303\251')" &&
	printf 'raw\n' >"$(printf 'raw\377byte \001ctl')" &&
	printf 'marker\n' >zz-marker &&
	# members of one and two blocks, so that headers and data fall on
	# every block of the I/O buffers
	mkdir fill && i=0 &&
	while [ $i -lt 400 ]; do
		if [ $((i % 2)) = 0 ]; then : >fill/$i; else printf '%0100d' $i >fill/$i; fi
		i=$((i + 1))
	done || return 1
	if [ "$root" = 1 ]; then
		# ids too big for ustar (pax uid/gid) and ids without a name
		printf 'big ids\n' >big-ids && chown 3000000:3000001 big-ids &&
		printf 'small ids\n' >small-ids && chown 1234:5678 small-ids ||
			return 1
	fi
	# mtimes: files first, then directories, whose mtimes that changes
	touch -d '2001-02-03 04:05:06 UTC' mode600 mode444 big b512 &&
	touch -d '1999-12-31 23:59:59 UTC' "split/$(rep d 60)/$(rep f 60)" &&
	touch -d '2010-06-07 08:09:10 UTC' "$deep/$(rep e 40)" &&
	find . -type d -exec touch -d '2002-03-04 05:06:07 UTC' {} + &&
	touch -d '2003-04-05 06:07:08 UTC' private "longdir/$c150" "$deep" &&
	chmod 555 rodir &&
	cd "$TOP"
}

# mtimes beyond ustar's octal fields, where the file system keeps them
# (asked of a probe file first: the tree's own files are then checked)
holds_times() {
	touch -d '1960-01-01 00:00:00 UTC' "$1" && touch -d '2300-01-01 00:00:00 UTC' "$2" &&
	[ "$(find "$1" "$2" -printf '%Ts ')" = "-315619200 10413792000 " ]
}

ok "build the source tree" make_tree
if holds_times probe-old probe-future; then
	printf 'old\n' >src/old-file
	printf 'future\n' >src/future-file
	ok "source tree has mtimes before 1970 and after 2242" holds_times src/old-file src/future-file
else
	skip "this file system cannot hold mtimes before 1970 or after 2242"
fi
rm -f probe-old probe-future

# ---- helpers ---------------------------------------------------------------

names() {	# the entries below DIR, one per line, sorted
	(cd "$1" && find . -mindepth 1 | sed 's,^\./,,') | sort
}

attrs() {	# attrs DIR [TIMEFMT]: type, mode, links and mtime of every entry
	(cd "$1" && find . -mindepth 1 \( -type l -printf '%p %y -> %l\n' \) \
		-o -printf "%p %y %m %n ${2:-%Ts}\n") | sort
}

owners() {
	(cd "$1" && find . -mindepth 1 -printf '%p %U %G\n') | sort
}

same_tree() {	# same_tree A B [TIMEFMT]: contents and attributes equal
	diff -r --no-dereference "$1" "$2" &&
	attrs "$1" "${3:-}" >"$TOP/attrs.a" && attrs "$2" "${3:-}" >"$TOP/attrs.b" &&
	diff -u "$TOP/attrs.a" "$TOP/attrs.b"
}

fails_with() {	# fails_with STATUS PATTERN FILE: the last command's status and message
	[ "$T_STATUS" = "$1" ] || { echo "exit status $T_STATUS, want $1"; cat "$3"; return 1; }
	grep -q -- "$2" "$3" || { echo "no '$2' in:"; cat "$3"; return 1; }
}

run() {	# run CMD...: remember the exit status in T_STATUS
	"$@"
	T_STATUS=$?
}

is_empty_dir() {
	[ -d "$1" ] && [ -z "$(ls -A "$1")" ]
}

# ---- (a) GNU tar lists our archive ------------------------------------------

run "$TAR_TOOL" c src >ours.tar 2>ours.err
ok "tar-tool c writes an archive" test "$T_STATUS" = 0 -a ! -s ours.err
ok "tar-tool c is deterministic" sh -c '"$1" c src | cmp - ours.tar' - "$TAR_TOOL"
ok_eq "the archive is padded to whole 10 KiB records" \
	$(($(wc -c <ours.tar) % 10240)) 0

run tar tvf ours.tar --quoting-style=literal >gnu-tv.out 2>gnu-tv.err
ok "GNU tar lists our archive without a complaint" \
	test "$T_STATUS" = 0 -a ! -s gnu-tv.err
names src >want.names
tar tf ours.tar --quoting-style=literal | sed 's,/$,,' | sort >got.names
ok "GNU tar lists the same names as find" diff -u want.names got.names
ok "GNU tar sees the size of the big file" grep -q ' 5000001 .* big$' gnu-tv.out
ok "GNU tar sees the hard link" grep -q 'hard-b512 link to b512$' gnu-tv.out
ok "GNU tar sees the long symlink target" \
	grep -q "long-link -> longdir/$(rep L 150)/file\$" gnu-tv.out
ok "GNU tar sees mode 0444" grep -q '^-r--r--r-- .* mode444$' gnu-tv.out

# ---- (b) GNU tar extracts our archive -------------------------------------

mkdir gnu-x
ok "GNU tar extracts our archive" tar xpf ours.tar -C gnu-x
ok "GNU tar's extraction equals the source" same_tree src gnu-x
if [ "$root" = 1 ]; then
	owners src >owners.a && owners gnu-x >owners.b
	ok "GNU tar's extraction keeps the owners (pax uid/gid too)" \
		diff -u owners.a owners.b
else
	skip "owners are restored by GNU tar only for root"
fi

mkdir ours-x
ok "tar-tool x extracts our archive" sh -c '"$1" x ours-x <ours.tar' - "$TAR_TOOL"
ok "our round trip equals the source" same_tree src ours-x
if [ "$root" = 1 ]; then
	owners ours-x >owners.ours
	ok "as root, tar-tool x sets the owners as GNU tar does (pax uid/gid too)" \
		diff -u owners.a owners.ours
else
	skip "owners are restored only for root"
fi

mkdir pipe-x
ok "tar-tool x reads an archive that arrives in odd-sized pieces" \
	sh -c 'dd if=ours.tar bs=777 2>/dev/null | "$1" x pipe-x' - "$TAR_TOOL"
ok "... and it equals the source" same_tree src pipe-x

# ---- (c) we extract GNU tar's archives -----------------------------------

for fmt in default gnu pax; do
	opt=
	[ "$fmt" = default ] || opt=--format=$fmt
	tar cf "gnu-$fmt.tar" $opt -C src . 2>"gnu-$fmt.err"
	ok "GNU tar makes a $fmt archive" test $? = 0
	mkdir "x-$fmt"
	ok "tar-tool x extracts GNU tar's $fmt archive" \
		sh -c '"$1" x "$2" <"$3"' - "$TAR_TOOL" "x-$fmt" "gnu-$fmt.tar"
	ok "... and it equals the source" same_tree src "x-$fmt"
done
ok "... pax mtimes are restored to the nanosecond" same_tree src x-pax '%T@'

# ustar: GNU tar splits long names into prefix and name
tar cf gnu-ustar.tar --format=ustar -C src split mode600 rel-link hard-b512 b512 2>/dev/null
ok "GNU tar makes a ustar archive" test $? = 0
mkdir x-ustar gnu-ustar
tar xpf gnu-ustar.tar -C gnu-ustar
ok "tar-tool x extracts GNU tar's ustar archive" \
	sh -c '"$1" x x-ustar <gnu-ustar.tar' - "$TAR_TOOL"
ok "... as GNU tar does" same_tree gnu-ustar x-ustar

# files of 8 GiB and more need a pax size; GNU tar reads the start of one
mkdir huge
if truncate -s 8589934593 huge/sparse 2>/dev/null; then
	"$TAR_TOOL" c huge 2>/dev/null | head -c 65536 >huge.head
	tar tvf huge.head >huge.tv 2>/dev/null
	ok "GNU tar reads the pax size of an 8 GiB file" \
		grep -q ' 8589934593 .* sparse$' huge.tv
else
	skip "this file system cannot hold a sparse 8 GiB file"
fi
rm -rf huge

# ---- (d) hostile archives ----------------------------------------------------

mkdir outside
printf 'victim\n' >outside/victim
tar cPf abs.tar "$TOP/outside/victim" 2>/dev/null
rm outside/victim
ok "the absolute archive has an absolute member" \
	sh -c 'tar tPf abs.tar | grep -q "^/"'
mkdir abs-x
run "$TAR_TOOL" x abs-x <abs.tar 2>abs.err
ok "an absolute member name is refused" fails_with 1 'absolute' abs.err
ok "... and nothing is written" \
	sh -c '! test -e outside/victim && test -z "$(ls -A abs-x)"'

mkdir dot-x
printf 'good\n' >dot-x/good
printf 'evil\n' >escaped
(cd dot-x && tar cPf ../dotdot.tar good ../escaped 2>/dev/null)
rm escaped dot-x/good
ok "the dot-dot archive has a ../ member" \
	sh -c 'tar tPf dotdot.tar | grep -q "^\.\./escaped$"'
run "$TAR_TOOL" x dot-x <dotdot.tar 2>dotdot.err
ok "a member with '..' is refused" fails_with 1 "'\.\.'" dotdot.err
ok "... and nothing is written outside" test ! -e escaped

mkdir hl-src hl-x
printf 'f\n' >hl-src/f
ln hl-src/f hl-src/g
(cd hl-src && tar cPf ../hardabs.tar --transform 's,^f$,/etc/passwd,RSh' f g)
ok "the hard link archive links to an absolute name" \
	sh -c 'tar tvPf hardabs.tar | grep -q "g link to /etc/passwd$"'
run "$TAR_TOOL" x hl-x <hardabs.tar 2>hardabs.err
ok "a hard link to an absolute name is refused" fails_with 1 'absolute' hardabs.err
ok "... and no link is made" test ! -e hl-x/g

# a symlink to outside, then a member beneath that symlink
mkdir sl-a sl-b sl-x target-dir
ln -s "$TOP/target-dir" sl-a/esc
mkdir sl-b/esc
printf 'planted\n' >sl-b/esc/planted
tar cf sl.tar -C sl-a esc && tar rf sl.tar -C sl-b esc/planted
ok "the symlink archive has a member beneath its symlink" \
	sh -c 'tar tf sl.tar | grep -q "^esc/planted$"'
run "$TAR_TOOL" x sl-x <sl.tar 2>sl.err
ok "a member beneath a symlink is refused" fails_with 1 'esc' sl.err
ok "... and nothing is written through the symlink" \
	is_empty_dir target-dir

# ---- (e) damaged archives ----------------------------------------------------

poke() {	# poke FILE OFFSET: put a '9' (never an octal digit) at OFFSET
	printf 9 | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

cp ours.tar bad0.tar && poke bad0.tar 140
mkdir bad0-x
ok "GNU tar rejects the archive with a damaged first header" \
	sh -c '! tar tf bad0.tar >/dev/null 2>&1'
run "$TAR_TOOL" x bad0-x <bad0.tar 2>bad0.err
ok "tar-tool x refuses it" \
	fails_with 1 'bad header checksum at offset 0$' bad0.err

off=$(grep -abo zz-marker ours.tar | head -n 1 | cut -d: -f1)
cp ours.tar bad1.tar && poke bad1.tar $((off + 140))
ok "GNU tar rejects the archive with a damaged later header" \
	sh -c '! tar tf bad1.tar >/dev/null 2>&1'
mkdir bad1-x
run "$TAR_TOOL" x bad1-x <bad1.tar 2>bad1.err
ok "tar-tool x refuses it at that header's offset" \
	fails_with 1 "bad header checksum at offset $off\$" bad1.err

head -c 1000000 ours.tar >short.tar
mkdir short-x
run "$TAR_TOOL" x short-x <short.tar 2>short.err
ok "a truncated archive is refused" fails_with 1 'unexpected end of archive' short.err

# ---- hooks: progress counts every byte, stop stops -------------------------

run "$TAR_TOOL" -p c src >p.tar 2>p.err
ok_eq "tar_write reports every archive byte as progress" \
	"$(cat p.err)" "progress $(wc -c <p.tar | tr -d ' ')"
mkdir p-x
run "$TAR_TOOL" -p x p-x <p.tar 2>px.err
ok_eq "tar_extract reports every archive byte as progress" \
	"$(cat px.err)" "progress $(wc -c <p.tar | tr -d ' ')"
run "$TAR_TOOL" -s 1 c src >s.tar 2>s.err
ok "hooks->stop stops tar_write early" \
	sh -c '[ "$1" = 3 ] && [ $(wc -c <s.tar) -lt $(wc -c <p.tar) ]' - "$T_STATUS"
mkdir s-x
run "$TAR_TOOL" -s 1 x s-x <p.tar 2>sx.err
ok "hooks->stop stops tar_extract early" \
	sh -c '[ "$1" = 3 ] && ! test -e s-x/zz-marker' - "$T_STATUS"

chmod -R u+w . 2>/dev/null
done_testing
