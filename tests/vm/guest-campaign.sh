#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest's campaign driver (/vm/campaign.sh in the initramfs), run by
# /init at every boot with the disk mounted at /mnt/disk.  It returns when
# the machine is to power off.  The kernel command line chooses:
#
#   contest.vm=campaign  the real thing: the first boot runs `contest
#                        campaign plan ... --method kexec` and `start`,
#                        every later boot `contest campaign resume`; at
#                        the end, `campaign status` and `report --campaign`.
#   contest.vm=standin   (default) what the campaign must do, in shell,
#                        until `contest campaign` exists: a plan of four
#                        boots, ABBA (arm a = /boot/vmlinuz-a, b = vmlinuz-b
#                        on the disk), a journal in
#                        /var/lib/contest/campaign/vm/journal, one fsync'ed
#                        line per step ("SEQ ARM PHASE BOOT_ID UPTIME NOTE";
#                        phases start, rebooting, up, verified, ran,
#                        failed, lost, done), each boot verified (marker
#                        contest.campaign=vm/SEQ in /proc/cmdline, uname -r)
#                        and measured (`contest run`, one noload round),
#                        each hop by `kexec -s` (kexec_file_load) + `-e`.
#   contest.campaign=off or a STOP file in the state directory: power off
#   at once (the campaign's kill switch).
#
# Both use the same workload: cmd:/vm/work, busybox gzip -9 of four files.
set -u
S=/var/lib/contest/campaign/vm
J=$S/journal
R=/mnt/disk/results
BUILD='for f in f*.txt; do gzip -9 -c $f >$f.gz; done'
CLEAN='rm -f *.gz'
mkdir -p "$S" "$R" /mnt/disk/work
cd /mnt/disk/work || exit 1

say() { echo "contest-vm: $*"; }
arg() {	# arg NAME: the value of NAME= on the kernel command line
	tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -1
}
bootid=$(cat /proc/sys/kernel/random/boot_id)
mode=$(arg contest.vm)
marker=$(arg contest.campaign)
say "boot_id $bootid release $(uname -r) marker ${marker:-none} mode ${mode:-standin}"
if [ "$marker" = off ] || [ -e "$S/STOP" ]; then
	say "kill switch: ${marker:+contest.campaign=off}${marker:-STOP file}"
	exit 0
fi

if [ "$mode" = campaign ]; then
	id=$(cat "$S.id" 2>/dev/null)
	if [ -z "$id" ]; then
		say "campaign plan"
		contest campaign plan \
			--kernel "a=/mnt/disk/boot/vmlinuz-a,initrd=/mnt/disk/boot/initrd.img" \
			--kernel "b=/mnt/disk/boot/vmlinuz-b,initrd=/mnt/disk/boot/initrd.img" \
			--method kexec --boots 2 --runs-per-boot 1 --settle 0 --seed 1 -d "$R" \
			-w cmd:/vm/work --build-cmd "$BUILD" --clean-cmd "$CLEAN" --lead-time 0 \
			noload >/tmp/plan.out 2>&1
		st=$?
		sed 's/^/contest-vm: plan: /' /tmp/plan.out
		[ $st = 0 ] || { say "campaign plan failed ($st)"; exit 1; }
		# the ID: the first word after "campaign" on the plan's first line
		id=$(sed -n '1s/.*campaign \([^ :]*\).*/\1/p' /tmp/plan.out)
		[ -n "$id" ] || { say "no campaign ID in plan's output"; exit 1; }
		echo "$id" >"$S.id"
		sync
		say "campaign start $id"
		contest campaign start "$id" 2>&1 | sed 's/^/contest-vm: start: /'
	else
		say "campaign resume ($id)"
		contest campaign resume 2>&1 | sed 's/^/contest-vm: resume: /'
	fi
	# resume and start return when nothing is left to boot
	contest campaign status "$id" 2>&1 | sed 's/^/contest-vm: status: /'
	say "report begin"
	contest report -d "$R" --campaign "$id" 2>&1
	say "report end"
	exit 0
fi

# ---- the stand-in -----------------------------------------------------------
say "stand-in: contest campaign does not exist yet"
PLAN='1 a
2 b
3 b
4 a'
journal() {	# journal SEQ ARM PHASE [NOTE]: one line, on the disk before going on
	echo "$1 $2 $3 $bootid $(cut -d' ' -f1 /proc/uptime) ${4:-}" >>"$J"
	sync
	say "journal: $1 $2 $3 ${4:-}"
}
arm_of() { echo "$PLAN" | awk -v s="$1" '$1 == s { print $2 }'; }
hop() {	# hop SEQ: journal it, load its arm's kernel and kexec into it
	a=$(arm_of "$1")
	base=$(tr ' ' '\n' </proc/cmdline | grep -v '^contest\.campaign=' | grep -v '^BOOT_IMAGE=' |
		tr '\n' ' ' | sed 's/ *$//')
	journal "$1" "$a" rebooting
	if ! kexec -s -l "/mnt/disk/boot/vmlinuz-$a" --initrd=/mnt/disk/boot/initrd.img \
		--append="$base contest.campaign=vm/$1"; then
		journal "$1" "$a" failed "kexec -s -l refused"
		return 1
	fi
	say "kexec into $a for boot $1 at $(cut -d' ' -f1 /proc/uptime) s"
	sync
	cd /
	umount /mnt/disk
	kexec -e
	say "kexec -e returned"
	return 1
}

last=$(tail -n 1 "$J" 2>/dev/null)
# shellcheck disable=SC2086 # the line's words
set -- $last
if [ $# -lt 4 ]; then
	journal 0 - start "boot of the start command: never measured"
	hop 1
	exit 1
fi
seq=$1 arm=$2 phase=$3 was=$4
case $phase in
start | ran) ;;
rebooting)
	want=$(cat "/mnt/disk/boot/release-$arm")
	if [ "$marker" != "vm/$seq" ] || [ "$(uname -r)" != "$want" ]; then
		journal "$seq" "$arm" failed "wrong boot: marker ${marker:-none}, release $(uname -r), want vm/$seq $want"
		n=$(awk -v s="$seq" '$1 == s && $3 == "failed"' "$J" | wc -l)
		[ "$n" -le 2 ] || { journal "$seq" "$arm" "done" "aborted: boot $seq failed $n times"; exit 1; }
		hop "$seq"
		exit 1
	fi
	journal "$seq" "$arm" up
	journal "$seq" "$arm" verified "marker vm/$seq, release $want"
	say "boot $seq ($arm) running contest"
	contest run -k "$arm" -d "$R" -w cmd:/vm/work --build-cmd "$BUILD" --clean-cmd "$CLEAN" \
		-n 1 --lead-time 0 --no-progress noload >/tmp/run.out 2>&1
	st=$?
	sed 's/^/contest-vm: run: /' /tmp/run.out
	if [ $st != 0 ]; then
		journal "$seq" "$arm" failed "contest run exited $st"
		exit 1
	fi
	journal "$seq" "$arm" ran
	;;
up | verified)
	[ "$was" != "$bootid" ] || { say "journal ends at $phase of this very boot"; exit 1; }
	journal "$seq" "$arm" lost "boot $was ended during the round"
	hop "$seq"
	exit 1
	;;
failed | lost)
	hop "$seq"
	exit 1
	;;
done)
	say "campaign over"
	exit 0
	;;
esac
next=$((seq + 1))
if [ -z "$(arm_of "$next")" ]; then
	journal "$seq" - "done" "$(echo "$PLAN" | wc -l) boots"
	say "report begin"
	contest report -d "$R" 2>&1
	say "report end"
	exit 0
fi
hop "$next"
exit 1
