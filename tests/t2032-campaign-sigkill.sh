#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest campaign killed (SIGKILL) at every step of its journal, and in the
# middle of a boot's rounds, then resumed: every step cut short is done
# again, no round is lost or counted twice.  The steps are held by
# tests/contest-hooked (CONTEST_TEST_HOOK=journal:N: after the Nth journal
# line of that resume; record:N: before the Nth record of the suite).
. "$TOP_SRCDIR/tests/lib.sh"

[ -x "${CONTEST_HOOKED:-}" ] || skip_all "tests/contest-hooked is not built"
campaign_root
mkdir hook || exit 99
mkfifo hook/go || exit 99
CAMPAIGN_CONTEST=$CONTEST_HOOKED

none_left() {	# no contest-hooked working in run/: the killed one's guardian gone too
	! contest_in "$T_DIR/run" "$CONTEST_HOOKED"
}

killed_at() {	# killed_at POINT:N NAME: resume held at POINT:N, then SIGKILLed (or
	# not, when it ended before reaching it); 0 when it was killed
	rm -f hook/pid
	CONTEST_TEST_HOOK=$1 CONTEST_TEST_HOOK_DIR=$T_DIR/hook campaign "$2" resume &
	_bg=$!
	while kill -0 $_bg 2>/dev/null && [ ! -s hook/pid ]; do sleep 0.05; done
	if [ -s hook/pid ]; then
		kill -9 "$(cat hook/pid)"
		wait $_bg
		wait_until none_left	# its guardian's cleaning up done
		return 0
	fi
	wait $_bg
	return 1
}

campaign_plan plan plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 2
campaign start start "$ID"
ok_eq "start exits 0" "$?" 0
dir=$R/var/lib/contest/campaign/$ID
# every boot: killed after its 1st, 2nd, 3rd or 4th journal line (up,
# verified, ran, rebooting), then resumed whole
kills=0
n=0
for nth in 1 2 3 4 1 2 3 4; do
	n=$((n + 1))
	tail -1 "$dir/journal" | grep -q ' phase=end ' && break
	killed_at "journal:$nth" k$n && kills=$((kills + 1))
	tail -1 "$dir/journal" | grep -q ' phase=end ' && break
	campaign r$n resume
done
ok "killed at a journal step $kills times" test "$kills" -ge 6
campaign_until_over
ok "the campaign ends done" grep -q ' phase=end .*note=done' "$dir/journal"
ok_eq "each boot ran once, in the planned order" \
	"$(grep ' phase=ran ' "$dir/journal" | sed 's/.* seq=\([0-9]*\) .*/\1/' | tr '\n' ' ')" \
	"1 2 3 4 5 6 "
ok "a cut step before the reboot was issued again" \
	grep -q 'again:%20the%20reboot%20did%20not%20happen' "$dir/journal"
for seq in 3 4 5 6; do
	s=$(sed -n "s/.* seq=$seq phase=ran .*session=\([^ ]*\) .*/\1/p" "$dir/journal")
	ok_eq "boot $seq: its two rounds stored once" \
		"$(grep '^run ' run/contest-results/*.results | grep " session=$s " |
		   grep -c " boot=$seq ")" 2
done
ok_eq "8 runs in the store, no more" \
	"$(grep '^run ' run/contest-results/*.results | grep -c " campaign=$ID ")" 8

# ---- killed in the middle of a boot's rounds --------------------------------------------------
campaign_plan plan2 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 2
campaign start2 start "$ID"
dir=$R/var/lib/contest/campaign/$ID
campaign r-burn1 resume
campaign r-burn2 resume	# boots 1 and 2 (burn-in) done, boot 3 asked for
killed_at record:2 mid
ok_eq "killed before the second round's record of boot 3" "$?" 0
ok_eq "one round of boot 3 was stored before the kill" \
	"$(grep '^run ' run/contest-results/a.results | grep " campaign=$ID " | grep -c ' boot=3 ')" 1
ok "the journal still says boot 3 was verified, not ran" \
	sh -c "tail -1 '$dir/journal' | grep -q ' seq=3 phase=verified '"
campaign_until_over
ok "the campaign ends done" grep -q ' phase=end .*note=done' "$dir/journal"
ok_eq "boot 3 ran once" "$(grep -c ' seq=3 phase=ran ' "$dir/journal")" 1
ok_eq "boot 3: 3 records in the store (1 cut short, 2 counted)" \
	"$(grep '^run ' run/contest-results/a.results | grep " campaign=$ID " | grep -c ' boot=3 ')" 3
(cd run && "$CONTEST_HOOKED" report --campaign "$ID" >../rep.out 2>&1)
# each kernel's 4 runs (2 boots x 2 rounds) counted once: in its row when
# valid, else named under the tables with its reason.  (A run may be
# invalid for a cause outside the campaign: another program changing
# autogroup or the I/O scheduler during it, as a neighbour's contest
# compare does: "configuration b did not hold after the run".)
runs_of() {	# runs_of LABEL: the Runs of its noload row
	awk -v k="$1" '$1 == "noload" && $2 == k { print $4 } $1 == k && $2 ~ /^[0-9]+$/ { print $3 }' rep.out
}
for arm in a b; do
	valid=$(runs_of $arm)
	named=$(grep -c "^$arm boot [3-6], noload round [12], left out: " rep.out)
	ok_eq "report: the 4 runs of kernel $arm, each counted once (${valid:-no} valid, $named named left out)" \
		"$((${valid:-0} + named))" 4
done
ok "and says one run of a cut boot is left out" grep -q "^1 run of boots cut short and done again: left out" rep.out
# what the store holds of this campaign (boot, session, validity), and the
# report's lines on what it left out
grep -h '^run ' run/contest-results/*.results | grep " campaign=$ID " | while read -r rec; do
	echo "# $(printf '%s' "$rec" | grep -o ' \(label\|boot\|round\|session\|valid\|reason\|note\)=[^ ]*' | tr -d '\n')"
done
grep ' left out' rep.out | sed 's/^/# /'
ok "nothing of contest is left running" none_left
ok "the host is untouched" host_untouched

done_testing
