#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-vm.sh - a kernel campaign end to end in qemu (TCG), kexec from arm
# to arm inside the guest, a killed qemu resumed from the guest's disk; the
# host's boot configuration checked untouched.  `make check-vm` runs it (not
# make check: it takes minutes and a whole CPU or two); tests/vm/README.md.
#
# Prints TAP.  Environment: as make check sets it (CONTEST, TOP_SRCDIR,
# TMPDIR), and
#   CONTEST_VM_DEBS  a directory of kexec-tools, linux-image-amd64 and
#                    linux-image-cloud-amd64 .debs (else apt-get download)
#   CONTEST_VM_SMP   the guest's CPUs (default 2)
#   CONTEST_VM_BOOT  seconds a boot may take before the run is failed (120)
#   CONTEST_VM_MODE  standin or campaign (default: campaign when contest
#                    --help lists `contest campaign`, else standin)
#   CONTEST_VM_KEEP  a directory to copy the serial logs and journals into
#                    at the end (the scratch directory goes)
. "$TOP_SRCDIR/tests/lib.sh"
VM=$TOP_SRCDIR/tests/vm
SMP=${CONTEST_VM_SMP:-2}
BOOT=${CONTEST_VM_BOOT:-120}
G=$T_DIR/guest
QPID=

vm_kill() {	# kill -9 the running qemu, if any, and reap its pipeline
	[ -n "$QPID" ] || return 0
	if [ -s "$T_DIR/qemu.pid" ]; then
		kill -KILL "$(cat "$T_DIR/qemu.pid")" 2>/dev/null
	fi
	wait "$QPID" 2>/dev/null
	rm -f "$T_DIR/qemu.pid"
	QPID=
}
keep() {	# CONTEST_VM_KEEP=DIR: the serial logs and journals copied there
	[ -n "${CONTEST_VM_KEEP:-}" ] || return 0
	mkdir -p "$CONTEST_VM_KEEP" && cp "$T_DIR"/*.log "$T_DIR"/*.journal "$CONTEST_VM_KEEP/" 2>/dev/null
}
trap 'vm_kill; keep; memcg_remove; rm -rf "$T_DIR"' EXIT

for t in qemu-system-x86_64 busybox cpio mkfs.ext4 debugfs e2fsck perl timeout apt-get dpkg-deb; do
	command -v $t >/dev/null 2>&1 || skip_all "$t not found (tests/vm/README.md lists what the VM test needs)"
done
[ "$(id -u)" = 0 ] || skip_all "not root: the guest is built as root (dpkg-deb -x keeps owners)"

# ---- the host, before -------------------------------------------------------
host_state() {	# what must not change: the boot configuration and kexec
	for p in /boot /etc/default/grub /etc/default/grub.d /boot/grub /boot/efi \
		/sys/firmware/efi/efivars; do
		if [ -e "$p" ]; then
			find "$p" -xdev \( -type f -o -type l \) -exec sha256sum {} + 2>&1 | LC_ALL=C sort
			find "$p" -xdev -printf '%M %u %g %p\n' 2>&1 | LC_ALL=C sort
		else
			echo "absent $p"
		fi
	done
	if [ -e /sys/kernel/kexec_loaded ]; then
		echo "kexec_loaded $(cat /sys/kernel/kexec_loaded)"
	else
		echo "kexec_loaded absent (no kexec in this kernel)"
	fi
}
host_state >host.before
kexec_idle() { grep -qx 'kexec_loaded \(0\|absent.*\)' "$1"; }
ok "host, before: no kexec kernel loaded ($(grep kexec_loaded host.before))" kexec_idle host.before

# ---- the guest ---------------------------------------------------------------
mode=${CONTEST_VM_MODE:-}
if [ -z "$mode" ]; then
	# --help's usage lines name every command (t1002 keeps them honest)
	if "$CONTEST" --help 2>/dev/null | grep -q '^ *contest campaign '; then
		mode=campaign
	else
		mode=standin
	fi
fi
echo "# mode: $mode"
t0=$(date +%s)
ok "the guest is made from Debian packages (tests/vm/mkguest.sh)" \
	sh "$VM/mkguest.sh" "$G"
echo "# guest made in $(($(date +%s) - t0)) s: $(tr '\n' ' ' <"$G/releases")"
[ -s "$G/disk.img" ] || { done_testing; exit 1; }
rel_a=$(awk '$1 == "a" { print $2 }' "$G/releases")
rel_b=$(awk '$1 == "b" { print $2 }' "$G/releases")
ok "the two arms are two kernels ($rel_a, $rel_b)" test -n "$rel_a" -a -n "$rel_b" -a "$rel_a" != "$rel_b"

vm_start() {	# vm_start NAME KERNEL APPEND: qemu in the background, its serial
	# console in NAME.log, each line after the host's seconds since start
	rm -f "$T_DIR/qemu.pid"
	( timeout -s KILL $((BOOT * 8)) qemu-system-x86_64 -accel tcg -m 1024 -smp "$SMP" \
		-nographic -no-reboot -kernel "$G/$2" -initrd "$G/initrd.img" \
		-append "console=ttyS0 panic=10 $3" \
		-drive "file=$G/disk.img,if=virtio,format=raw" -pidfile "$T_DIR/qemu.pid" \
		</dev/null 2>&1 |
		perl -MTime::HiRes=time -ne 'BEGIN { $| = 1; $s = time }
			s/\r//g; printf "%7.2f %s", time - $s, $_' >"$1.log" ) 2>/dev/null &
	QPID=$!
}
vm_wait() {	# vm_wait NAME PATTERN SECONDS: until NAME.log has a line matching
	# PATTERN (grep -E), or qemu ended, or SECONDS passed
	_n=0
	while ! grep -qE "$2" "$1.log" 2>/dev/null; do
		kill -0 "$QPID" 2>/dev/null || return 1
		[ $_n -ge $(($3 * 5)) ] && return 1
		sleep 0.2
		_n=$((_n + 1))
	done
}
vm_end() {	# vm_end SECONDS: until qemu exits by itself (the guest powered
	# off); killed after SECONDS, and then 1
	_n=0
	while kill -0 "$QPID" 2>/dev/null; do
		[ $_n -ge $(($1 * 5)) ] && { vm_kill; return 1; }
		sleep 0.2
		_n=$((_n + 1))
	done
	wait "$QPID" 2>/dev/null
	QPID=
}
at() {	# at NAME PATTERN: the host's second of the first line matching PATTERN
	grep -E "$2" "$1.log" | head -1 | awk '{ print $1 }'
}
steps() {	# a journal's lines as "SEQ PHASE": "step v=2 seq=N phase=P ..."
	# (contest campaign's key=value records), or "SEQ ARM PHASE ..." (the stand-in)
	awk '$1 == "step" { s = p = ""; for (i = 2; i <= NF; i++) {
			if ($i ~ /^seq=/) s = substr($i, 5); if ($i ~ /^phase=/) p = substr($i, 7) }
		print s, p; next } { print $1, $3 }'
}
disk_cat() {	# disk_cat PATH: a file of the guest's disk (qemu not running),
	# as the guest's next mount will see it: debugfs does not replay ext4's
	# journal, where what the guest synced just before a kill may still be,
	# so it reads a copy that e2fsck has replayed it on
	cp --sparse=always "$G/disk.img" "$T_DIR/replayed.img" &&
		e2fsck -y -E journal_only "$T_DIR/replayed.img" >/dev/null 2>&1
	debugfs -R "cat $1" "$T_DIR/replayed.img" 2>/dev/null
	rm -f "$T_DIR/replayed.img"
}
shown() {	# shown NAME PATTERN: NAME.log has a line matching PATTERN
	grep -E "$2" "$1.log" || { echo "no line matching '$2' in $1.log; its end:"; tail -15 "$1.log"; return 1; }
}

# ---- the kill switch, and kernel b's boot time -------------------------------
vm_start off vmlinuz-b "contest.vm=$mode contest.campaign=off"
vm_end "$BOOT"
ok "kernel b boots in qemu and its init reads the disk" shown off "contest-vm: disk mounted"
ok "contest.campaign=off on the command line: the guest powers off at once" \
	shown off "contest-vm: kill switch: contest.campaign=off"
echo "# boot of b ($rel_b) to its init: $(at off 'contest-vm: init') s (TCG, -smp $SMP)"
disk_cat /var/lib/contest/campaign/vm/journal >off.journal
ok_eq "the kill switch wrote no journal" "$(wc -c <off.journal)" 0

# ---- the campaign, killed mid-way ----------------------------------------------
case $mode in
standin) kill_at='contest-vm: boot 2 \(b\) running contest' ;;
campaign) kill_at='contest-vm: resume: contest: warm-up build \(untimed\)' ;;	# the first measured boot
esac
vm_start run1 vmlinuz-a "contest.vm=$mode"
killed=no
if vm_wait run1 "$kill_at" $((BOOT * 4)); then
	kill -KILL "$(cat "$T_DIR/qemu.pid")" && killed=yes
fi
vm_kill	# whatever happened: not left running
ok_eq "qemu killed (SIGKILL) mid-way, at '$kill_at'" "$killed" yes
echo "# boot of a ($rel_a) to its init: $(at run1 'contest-vm: init') s"
ok "the start boot runs kernel a, no marker" shown run1 "release $rel_a marker none"
case $mode in
standin)
	ok "kexec a -> a: marker contest.campaign=vm/1 in /proc/cmdline after the hop" \
		shown run1 "release $rel_a marker vm/1 "
	ok "kexec a -> b: marker contest.campaign=vm/2 in /proc/cmdline after the hop" \
		shown run1 "release $rel_b marker vm/2 "
	disk_cat /var/lib/contest/campaign/vm/journal >run1.journal
	sed 's/^/#   /' run1.journal
	ok_eq "the journal survived the hops and the kill: it ends at boot 2's verified" \
		"$(tail -1 run1.journal | awk '{ print $1, $2, $3 }')" "2 b verified"
	;;
campaign)
	ok "a kexec hop: the marker contest.campaign= in /proc/cmdline" \
		shown run1 "marker [^ ]+/[0-9]+ "
	ok "kexec a -> b: kernel b runs with the campaign's marker" \
		shown run1 "release $rel_b marker [^ ]+/[0-9]+ "
	id=$(disk_cat /var/lib/contest/campaign/vm.id)
	disk_cat "/var/lib/contest/campaign/$id/journal" >run1.journal
	ok_eq "the journal survived the hops and the kill: it ends at a boot's verified" \
		"$(steps <run1.journal | tail -1 | awk '{ print $2 }')" verified
	;;
esac

# ---- started again: the guest resumes from its disk ----------------------------------
t1=$(date +%s)
vm_start run2 vmlinuz-a "contest.vm=$mode"
vm_end $((BOOT * 8))
echo "# after the kill, the rest of the campaign took $(($(date +%s) - t1)) s"
# each kexec hop: from the guest's last line before it (the stand-in's
# "kexec into", contest campaign's "booting" or "ran: ") to the next /init's first
awk 'FNR == 1 { k = "" }
	/contest-vm: kexec into|contest-vm: (start|resume): contest: campaign .*(booting|ran: )/ { k = $1 }
	/contest-vm: init/ && k != "" { printf "# kexec hop into %s, to its /init: %.1f s\n", $4, $1 - k; k = "" }' \
	run1.log run2.log
ok "the guest powered off by itself at the end" shown run2 "contest-vm: power off: campaign script returned 0"
case $mode in
standin)
	disk_cat /var/lib/contest/campaign/vm/journal >run2.journal
	sed 's/^/#   /' run2.journal
	ok "the boot cut by the kill is journalled lost, then booted again" \
		grep -E '^2 b lost .*' run2.journal
	ok "started in kernel a, the guest kexecs into b for boot 2 again" \
		shown run2 "release $rel_b marker vm/2 "
	ok_eq "each planned boot ran once, the lost one not counted" \
		"$(awk '$3 == "ran" { printf "%s%s ", $1, $2 }' run2.journal)" "1a 2b 3b 4a "
	ok_eq "the journal ends with done" "$(tail -1 run2.journal | awk '{ print $3 }')" "done"
	debugfs -R "rdump /results $T_DIR" "$G/disk.img" >/dev/null 2>&1	# clean: powered off
	"$CONTEST" report -d results >report.out 2>&1
	sed 's/^/#   /' report.out
	ok "the results on the disk: 2 valid runs of arm a, 2 of b, none of the lost boot" \
		sh -c 'grep -Eq "^a +\[2\]" report.out && grep -Eq "^b +\[2\]" report.out'
	skip "the per-boot report (contest report --campaign): contest campaign does not exist yet, the stand-in ran"
	;;
campaign)
	sed -n '/contest-vm: report begin/,/contest-vm: report end/p' run2.log | sed 's/^/#   /'
	ok "the per-boot report names both arms" \
		sh -c "sed -n '/report begin/,/report end/p' run2.log | grep -qE ' a ' &&
			sed -n '/report begin/,/report end/p' run2.log | grep -qE ' b '"
	disk_cat "/var/lib/contest/campaign/$id/journal" >run2.journal
	sed 's/^/#   /' run2.journal
	steps <run2.journal >steps.txt
	ok "the journal records the boot lost to the kill" grep -q ' lost$' steps.txt
	ok "boots ran, none twice" sh -c "awk '\$2 == \"ran\" { print \$1 }' steps.txt >ran &&
		test -s ran && test -z \"\$(sort ran | uniq -d)\""
	# the report's rows: TYPE? LABEL BOOTS RUNS ...; 2 measured boots of
	# each kernel planned, 1 round each
	ok_eq "boots and runs of each kernel in the report: none lost, none twice" \
		"$(sed -n '/report begin/,/report end/p' run2.log | awk '{ for (i = 2; i < NF; i++)
			if (($i == "a" || $i == "b") && $(i + 1) ~ /^[0-9]+$/) printf "%s %s %s; ", $i, $(i + 1), $(i + 2) }')" \
		"a 2 2; b 2 2; "
	;;
esac

# ---- the host, after ---------------------------------------------------------------
ok_eq "no qemu of this test is left running" "$(pgrep -f "$G/" | tr '\n' ' ')" ""
host_state >host.after
ok "host, after: /boot, grub, efivars and kexec_loaded as before" diff host.before host.after
ok "host, after: no kexec kernel loaded" kexec_idle host.after
echo "# whole test: $(($(date +%s) - t0)) s"
done_testing
