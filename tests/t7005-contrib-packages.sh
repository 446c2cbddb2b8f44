#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The packages build from the release tarball: the files of `make dist`
# (make distdir), contrib/debian copied in as debian/, dpkg-buildpackage
# -us -uc -b (tests skipped: DEB_BUILD_OPTIONS=nocheck; the suite is this
# one), the .deb unpacked with dpkg -x into a scratch root, where contest
# runs and its man pages render; the completion and the campaign's unit are
# in it, the unit not enabled by the package.  Then contrib/contest.spec
# with rpmbuild where it is installed.  Nothing is installed on the machine.
. "$TOP_SRCDIR/tests/lib.sh"

version=$("$CONTEST" --version | sed -n '1s/^contest //p')
ok "contest --version names a version" test -n "$version"
ok_eq "contrib/contest.spec has contest's version" \
	"$(sed -n 's/^Version: *//p' "$TOP_SRCDIR/contrib/contest.spec")" "$version"
ok_eq "contrib/debian/changelog has contest's version" \
	"$(sed -n '1s/^contest (\([^-)]*\).*/\1/p' "$TOP_SRCDIR/contrib/debian/changelog")" "$version"

# the release tarball's files, as `make dist` packs them
src=$T_DIR/src/contest-$version
mkdir -p "$T_DIR/src"
ok "make distdir gives the tarball's files" \
	make -s -C "$TOP_BUILDDIR" distdir distdir="$src"

if ! command -v dpkg-buildpackage >/dev/null 2>&1; then
	skip "no dpkg-buildpackage (apt-get install dpkg-dev debhelper)"
elif ! command -v dh >/dev/null 2>&1; then
	skip "no dh (apt-get install debhelper)"
elif ! dpkg-checkbuilddeps -d "$(sed -n 's/^Build-Depends: //p' "$src/contrib/debian/control")" \
	/dev/null >builddeps.out 2>&1; then
	skip "build dependencies missing: $(cat builddeps.out)"
else
	cp -R "$src/contrib/debian" "$src/debian"
	(cd "$src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >deb.log 2>&1
	ok "dpkg-buildpackage -us -uc -b builds (deb.log)" test $? = 0
	tail -n 20 deb.log | sed 's/^/# /'
	deb=$(ls "$T_DIR"/src/contest_"$version"-*_*.deb 2>/dev/null | head -n 1)
	ok "a .deb is made" test -f "$deb"
	dpkg -x "$deb" root
	ok_eq "the packaged contest runs: --version" \
		"$(root/usr/bin/contest --version | head -n 1)" "contest $version"
	ok "the packaged contest lists its run types" sh -c 'root/usr/bin/contest list | grep -q "^process_load "'
	if command -v man >/dev/null 2>&1; then
		# contest.1, a page per command and contest-loads.7: as many as docs/ has
		ok "man -l renders the NAME of every page the .deb holds, as many as docs/ has" sh -c '
			n=0
			for page in root/usr/share/man/man*/*; do
				man -l "$page" 2>/dev/null | grep -q "^NAME" || { echo "no NAME: ${page#root}"; exit 1; }
				n=$((n + 1))
			done
			test "$n" -eq "$(ls "$1"/docs/*.[1-9] | wc -l)" || { echo "$n pages"; exit 1; }' sh "$TOP_SRCDIR"
	else
		skip "no man to render the pages with"
	fi
	ok "the bash completion is packaged and defines _contest" \
		bash -c '. root/usr/share/bash-completion/completions/contest && declare -F _contest'
	unit=$(find root -name contest-campaign.service)
	ok "the campaign's unit is packaged" test -n "$unit"
	ok "the unit runs the packaged contest" grep -qx 'ExecStart=/usr/bin/contest campaign resume' "$unit"
	# the maintainer scripts of a first install, run against stand-ins of
	# deb-systemd-helper, deb-systemd-invoke and systemctl that log their
	# calls ("was-enabled" answers yes, as it does for a new unit)
	dpkg-deb -e "$deb" control
	mkdir stubs
	for tool in deb-systemd-helper deb-systemd-invoke systemctl; do
		printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n[ "$1" = debian-installed ] && exit 1\nexit 0\n' \
			"$tool" "$T_DIR" >"stubs/$tool"
		chmod +x "stubs/$tool"
	done
	: >calls
	for script in preinst postinst; do
		[ -f "control/$script" ] && PATH="$T_DIR/stubs:$PATH" DPKG_ROOT="$T_DIR/root" \
			sh "control/$script" install >/dev/null 2>&1
	done
	[ -f control/postinst ] && PATH="$T_DIR/stubs:$PATH" DPKG_ROOT="$T_DIR/root" \
		sh control/postinst configure >/dev/null 2>&1
	sed 's/^/# call: /' calls
	ok "a first install neither enables nor starts the unit" \
		sh -c '! grep -q "enable\|start\|restart" calls'
fi

if command -v rpmbuild >/dev/null 2>&1; then
	mkdir -p rpm/SOURCES
	tar -C "$T_DIR/src" --exclude="contest-$version/debian" -czf "rpm/SOURCES/contest-$version.tar.gz" "contest-$version"
	rpmbuild --define "_topdir $T_DIR/rpm" --nodeps --nocheck \
		-ba "$src/contrib/contest.spec" >rpm.log 2>&1
	ok "rpmbuild -ba contrib/contest.spec builds (rpm.log)" test $? = 0
	rpm=$(ls rpm/RPMS/*/contest-"$version"-*.rpm 2>/dev/null | head -n 1)
	ok "an RPM is made" test -f "$rpm"
	rpm -qlp "$rpm" >rpm.files 2>/dev/null
	for f in /usr/bin/contest /usr/share/man/man1/contest.1 contest-campaign.service \
		/bash-completion/completions/contest; do
		ok "the RPM holds $f" grep -q -- "$f" rpm.files
	done
else
	skip "no rpmbuild (apt-get install rpm) for contrib/contest.spec"
fi
done_testing
