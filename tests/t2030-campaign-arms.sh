#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest campaign through script: under a root prefix: a campaign of two
# kernels and one of three, planned, started (the service installed under
# the prefix), resumed at every "boot" as the service would, each boot
# verified and measured by the normal suite into the normal store with
# campaign=ID and boot=SEQ, in the planned order; at the end the service is
# gone and report --campaign compares boot means.  Nothing of the host's
# boot configuration is touched.
. "$TOP_SRCDIR/tests/lib.sh"

campaign_root
ok "the host has no campaign before" host_untouched

# ---- two kernels ---------------------------------------------------------------------
campaign_plan plan2 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 2
ok_eq "plan exits 0" "$?" 0
ok "plan prints the id" test -n "$ID"
ok "plan prints the order: a burn-in boot of each, then ABBA" \
	grep -qx "order: a\* b\* | a b b a" plan2.out
ok "plan prints an estimate" grep -q "^estimate: about" plan2.out
dir=$R/var/lib/contest/campaign/$ID
ok "the plan is written under the root prefix" test -s "$dir/plan"
ok "no journal before start" test ! -e "$dir/journal"
campaign start2 start "$ID"
ok_eq "start exits 0" "$?" 0
unit=$R/etc/systemd/system/contest-campaign.service
ok "start installed the service under the root prefix" test -s "$unit"
ok "a service that runs campaign resume, Type=exec (resume waits for the boot's jobs)" \
	sh -c "grep -qx 'Type=exec' '$unit' && grep -q '^ExecStart=.* campaign resume\$' '$unit'"
ok_eq "the unit written is the one make install installs, but the path" \
	"$(grep -v '^ExecStart=' "$unit")" \
	"$(grep -v '^#\|^ExecStart=' "$TOP_SRCDIR/contrib/systemd/contest-campaign.service.in")"
ok "and enabled it" test -L "$R/etc/systemd/system/multi-user.target.wants/contest-campaign.service"
ok_eq "the active campaign is named" "$(cat "$R/var/lib/contest/campaign/active")" "$ID"
ok_eq "the first boot asked for, the boot start ran on not measured" \
	"$(campaign_journal)" "1:rebooting"
ok_eq "the script booted kernel a" "$(cat "$R/boots")" "1 a 1.0-a"
ok "the script was given the marker on its command line" \
	grep -q "contest.campaign=$ID/1\$" "$R/proc/cmdline"
campaign st0 status "$ID"
ok "status before the first boot: no kernel booted yet" \
	sh -c "grep -qx '  a 1.0-a: not yet booted' st0.out && grep -qx '  b 1.0-b: not yet booted' st0.out"
campaign r1 resume	# boot 1 (a, burn-in) verified, boot 2 asked for
campaign st1 status "$ID"
ok "status after a's first boot: a as that boot verified it (release, build id, /proc/version)" \
	grep -qx '  a 1.0-a: release 1.0-a, build id 2e302d61, boot 1: Linux version 1.0-a #1' st1.out
ok "and b not yet booted" grep -qx '  b 1.0-b: not yet booted' st1.out
campaign_until_over
ok "resumed until the end" test "$RESUMES" -gt 0
ok_eq "every boot once, in the planned order" "$(cut -d' ' -f1,2 "$R/boots" | tr '\n' ' ')" \
	"1 a 2 b 3 a 4 b 5 b 6 a "
ok_eq "each boot: rebooting, up, verified, ran; then the end" "$(campaign_journal | tr '\n' ' ')" \
	"1:rebooting 1:up 1:verified 1:ran 2:rebooting 2:up 2:verified 2:ran 3:rebooting 3:up 3:verified 3:ran 4:rebooting 4:up 4:verified 4:ran 5:rebooting 5:up 5:verified 5:ran 6:rebooting 6:up 6:verified 6:ran 6:end "
ok "the end says done" grep -q " phase=end .*note=done" "$dir/journal"
ok "the last resume printed the tables" grep -q "the boot is the unit" "resume-$RESUMES.out"
for arm in a b; do
	f=run/contest-results/$arm.results
	ok_eq "kernel $arm: 2 measured boots x 2 rounds in the normal store" \
		"$(grep -c '^run ' "$f")" 4
	ok_eq "each with campaign=$ID" "$(grep '^run ' "$f" | grep -c " campaign=$ID ")" 4
done
ok "burn-in boots are not measured" \
	sh -c "! grep -q ' boot=[12] ' run/contest-results/*.results"
for seq in 3 4 5 6; do
	s=$(sed -n "s/.* seq=$seq phase=ran .*session=\([^ ]*\) .*/\1/p" "$dir/journal")
	ok_eq "boot $seq: its 2 rounds under its session, boot=$seq" \
		"$(grep '^run ' run/contest-results/*.results | grep " session=$s " |
		   grep -c " boot=$seq ")" 2
done
ok "the service is gone" sh -c "test ! -e '$unit' && test ! -e '$R/etc/systemd/system/multi-user.target.wants/contest-campaign.service'"
ok "no campaign is active" test ! -e "$R/var/lib/contest/campaign/active"
campaign idle resume
ok_eq "resume with no campaign active exits 0" "$?" 0
ok "and says so" grep -q "no campaign is active" idle.err
campaign st status "$ID"
ok_eq "status exits 0" "$?" 0
ok "status: done" grep -q "^state: done" st.out
ok "status: the boot table" grep -q "^   3       a  *ran " st.out
ok "status: both kernels as their first boots verified them" \
	sh -c "grep -qx '  a 1.0-a: release 1.0-a, build id 2e302d61, boot 1: Linux version 1.0-a #1' st.out &&
	       grep -qx '  b 1.0-b: release 1.0-b, build id 2e302d62, boot 2: Linux version 1.0-b #1' st.out"
ok "status: the tables" grep -q "^noload  *a  *2  *4 " st.out
(cd run && "$CONTEST_HOOKED" report --campaign "$ID" >../rep.out 2>../rep.err)
ok_eq "report --campaign exits 0" "$?" 0
ok "report: 2 boots and 4 runs of each kernel" \
	sh -c "grep -q '^noload  *a  *2  *4 ' rep.out && grep -q '^  *b  *2  *4 ' rep.out"
ok "report: the spread and the smallest detectable difference under it" \
	grep -q "^noload: SD of a boot's mean .*smallest difference 2 boots a kernel detect" rep.out
(cd run && "$CONTEST_HOOKED" report >../plain.out 2>&1)
ok "contest report reads the campaign's records as any" grep -q "^a (base)  *\[4\]" plain.out

# ---- three kernels ---------------------------------------------------------------------
rm -f "$R/boots"
campaign_plan plan3 plan --kernel a=1.0-a --kernel b=1.0-b --kernel c=1.0-c --boots 1 \
	--runs-per-boot 1 --seed 5
ok_eq "three kernels: plan exits 0" "$?" 0
order=$(sed -n 's/^order: //p' plan3.out)
ok "a burn-in boot of each, then a Williams row" \
	sh -c "echo '$order' | grep -qx 'a\\* b\\* c\\* | [abc] [abc] [abc]'"
ok_eq "the row: each kernel once" \
	"$(echo "$order" | sed 's/.*| //' | tr ' ' '\n' | sort | tr '\n' ' ')" "a b c "
# this time the unit is installed (make install, a package): start enables
# that one, by the symlink systemctl enable makes, and writes none
mkdir -p "$R/usr/lib/systemd/system"
sed 's|@bindir@|/usr/bin|' "$TOP_SRCDIR/contrib/systemd/contest-campaign.service.in" \
	>"$R/usr/lib/systemd/system/contest-campaign.service"
campaign start3 start "$ID"
ok_eq "start exits 0" "$?" 0
ok_eq "an installed unit: start enables it" \
	"$(readlink "$R/etc/systemd/system/multi-user.target.wants/contest-campaign.service")" \
	/usr/lib/systemd/system/contest-campaign.service
ok "and writes no unit of its own" test ! -e "$unit"
campaign_until_over
ok_eq "six boots, in the planned order" "$(cut -d' ' -f2 "$R/boots" | tr '\n' ' ')" \
	"$(echo "$order" | tr -d '*|' | tr -s ' ' | sed 's/^ //') "
ok_eq "three measured boots stored, one a kernel" \
	"$(grep '^run ' run/contest-results/*.results | grep -c " campaign=$ID ")" 3
(cd run && "$CONTEST_HOOKED" report --campaign "$ID" >../rep3.out 2>&1)
ok "report: three kernels" sh -c "grep -q '^  *c  *1  *1 ' rep3.out"
ok "the end disabled the installed unit and left it installed" \
	sh -c "test ! -e '$R/etc/systemd/system/multi-user.target.wants/contest-campaign.service' &&
		test -s '$R/usr/lib/systemd/system/contest-campaign.service'"
ok "the host is untouched" host_untouched

done_testing
