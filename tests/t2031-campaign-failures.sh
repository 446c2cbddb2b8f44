#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest campaign's failure paths, through script: under a root prefix: a
# boot into the wrong kernel and a boot that never came back are journalled,
# never measured, and tried again; a kernel that fails too often, a boot
# loop (the reboot cap), the kill switch (contest.campaign=off, STOP),
# abort; --until stopping after a block; the unit and the state of a
# campaign that ended are gone, its results kept.
. "$TOP_SRCDIR/tests/lib.sh"

campaign_root
dir() { echo "$R/var/lib/contest/campaign/$ID"; }
phase_of() {	# phase_of SEQ PHASE: how many lines of boot SEQ say PHASE
	grep -c " seq=$1 phase=$2 " "$(dir)/journal"
}
over() {	# over STATE: status says the campaign ended so
	campaign st status "$ID" && grep -q "^state: $1" st.out
}
service_gone() {
	test ! -e "$R/etc/systemd/system/contest-campaign.service" &&
	test ! -e "$R/var/lib/contest/campaign/active"
}

# ---- a wrong kernel, a boot that never came back ------------------------------------------
campaign_plan p1 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 1
campaign s1 start "$ID"
ok_eq "start exits 0" "$?" 0
echo 1.0-a >"$R/wrong"	# boot 2 (b) will come up in a's kernel
campaign r1 resume	# boot 1 (a, burn-in) verified; boot 2 asked for
campaign r2 resume
ok_eq "boot 2 in the wrong kernel: failed" "$(phase_of 2 failed)" 1
ok "the journal says why" grep -q " seq=2 phase=failed .*wrong%20kernel:%201.0-a%20is%20a's" "$(dir)/journal"
ok "and the boot is asked for again" sh -c "tail -1 '$(dir)/journal' | grep -q ' seq=2 phase=rebooting '"
ok "nothing was measured in it" sh -c "! grep -q ' boot=2 ' run/contest-results/*.results 2>/dev/null"
touch "$R/default"	# boot 3 (a) will never come up: the machine is back in its default kernel
campaign r3 resume	# boot 2 verified now, boot 3 asked for
campaign r4 resume
ok_eq "boot 3 back in the default kernel: lost" "$(phase_of 3 lost)" 1
ok "the journal says it never came up" grep -q " seq=3 phase=lost .*never%20came%20up" "$(dir)/journal"
campaign_until_over
ok "the campaign ends done" over done
ok_eq "boot 2 ran once" "$(phase_of 2 ran)" 1
ok_eq "boot 3 ran once" "$(phase_of 3 ran)" 1
ok_eq "nothing measured in the wrong or default kernel: 4 boots x 1 run" \
	"$(grep '^run ' run/contest-results/*.results | grep -c " campaign=$ID ")" 4
campaign st status "$ID"
ok "status counts the failures" grep -q "^failures: a 1 b 1 " st.out
ok "the service is gone" service_gone

# ---- a kernel that never boots: its retries, then the end -----------------------------------
campaign_plan p2 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 1
campaign s2 start "$ID"
touch "$R/default"	# b's every boot comes back in the default kernel
campaign r5 resume
for i in 1 2 3; do
	touch "$R/default"
	campaign r6-$i resume
done
ok_eq "the third failure of b: resume exits 1" "$?" 1
rm -f "$R/default"
ok "a kernel that fails 3 times stops the campaign" over "stopped: boots of b failed 3 times"
ok_eq "three boots of b lost" "$(grep -c ' seq=2 phase=lost ' "$(dir)/journal")" 3
ok "the service is gone" service_gone

# ---- a boot loop: the reboot cap ------------------------------------------------------------
campaign_plan p3 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 1
cap=$(sed -n 's/.*reboots at most \([0-9]*\)$/\1/p' p3.out)
ok_eq "the cap: the planned boots and 6 spare" "$cap" 12
touch "$R/stay"	# the script asks, the machine never reboots
campaign s3 start "$ID"
campaign_until_over 30
ok "the reboot cap stops the campaign" over "stopped: 12 reboots, the cap"
ok_eq "after 12 reboots asked for" "$(grep -c ' phase=rebooting ' "$(dir)/journal")" 12
rm -f "$R/stay"
ok "the service is gone" service_gone

# ---- the kill switch: contest.campaign=off, STOP ---------------------------------------------
campaign_plan p4 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 1
campaign s4 start "$ID"
echo "root=/dev/vda contest.campaign=off" >"$R/proc/cmdline"
echo "boot-typed" >"$R/proc/sys/kernel/random/boot_id"
campaign r8 resume
ok_eq "contest.campaign=off at the boot prompt: resume exits 1" "$?" 1
ok "the campaign is stopped" over "stopped: contest.campaign=off"
ok "the service is gone" service_gone
campaign_plan p5 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 1
campaign s5 start "$ID"
touch "$(dir)/STOP"
campaign r9 resume
ok "a STOP file stops it" over "stopped: the STOP file"
ok "the service is gone" service_gone

# ---- abort -----------------------------------------------------------------------------------
campaign_plan p6 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 1
campaign s6 start "$ID"
ok "started: its service" test -e "$R/etc/systemd/system/contest-campaign.service"
campaign r10 resume
campaign ab abort "$ID"
ok_eq "abort exits 0" "$?" 0
ok "the campaign is aborted" over "aborted by the user"
ok "the service is gone" service_gone
campaign r11 resume
ok "resume has nothing to do" grep -q "no campaign is active" r11.err
ok "the journal ends with the abort" sh -c "tail -1 '$(dir)/journal' | grep -q ' phase=end .*aborted'"
campaign s6b start "$ID"
ok_eq "an ended campaign cannot start again" "$?" 1

# ---- --until: the stop rule after a block ---------------------------------------------------
# with two boots a kernel a look's interval is wide (Welch's t with 1 to 2
# degrees of freedom at the first boundary): the rule may stop after block
# 1, 2 or 3 of 4 as the noise falls, but at +-100% before the last block
campaign_plan p7 plan --kernel a=1.0-a --kernel b=1.0-b --until 100,max=8 --runs-per-boot 1
ok "plan names the stop rule" grep -q "O'Brien-Fleming" p7.out
ok "four blocks planned" grep -qx "order: a\* b\* | a b b a | a b b a | a b b a | a b b a" p7.out
campaign s7 start "$ID"
campaign_until_over 40
ok "--until 100%: met after a block before the last" over "done: --until 100% met after block [123]\$"
ran=$(grep -c ' phase=ran ' "$(dir)/journal")
ok "fewer than the 18 boots planned ran ($ran)" test "$ran" -lt 18
ok "the first look is printed" sh -c "cat resume-*.err | grep -q 'look 1 of 4 after block 1'"

# ---- an invalid run of a measured boot: counted nowhere, named under the tables -------------
# the build fails the third time it runs: boot 3's second round (its
# warm-up and first round before it; burn-in boots build nothing)
campaign p13 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --runs-per-boot 2 \
	--method "script:$T_DIR/reboot.sh" --settle 0 --lead-time 0 --no-probe \
	-w "cmd:$T_DIR/run/tree" --clean-cmd true --build-cmd \
	"n=\$(cat '$T_DIR/builds' 2>/dev/null || echo 0); echo \$((n + 1)) >'$T_DIR/builds'; [ \$n != 2 ]" \
	noload
ID=$(sed -n 's/^campaign //p' p13.out)
campaign s13 start "$ID"
campaign_until_over
ok "a campaign with an invalid run ends done" over done
ok_eq "its boot ran once all the same" "$(phase_of 3 ran)" 1
ok_eq "8 runs stored" "$(grep '^run ' run/contest-results/*.results | grep -c " campaign=$ID ")" 8
(cd run && "$CONTEST_HOOKED" report --campaign "$ID" >../rep13.out 2>&1)
ok "the report counts 3 valid runs of a, 4 of b" \
	sh -c "grep -q '^noload  *a  *2  *3 ' rep13.out && grep -q '^  *b  *2  *4 ' rep13.out"
ok "and names the run left out, its boot, round and reason" \
	grep -qx "a boot 3, noload round 2, left out: the workload failed: exit status 1" rep13.out
campaign st13 status "$ID"
ok "status too" grep -qx "a boot 3, noload round 2, left out: the workload failed: exit status 1" st13.out

# ---- mistakes on the command line -------------------------------------------------------------
campaign e1 plan --kernel a=1.0-a
ok_eq "one kernel: a usage error" "$?" 2
campaign e2 plan --kernel a=1.0-a --kernel b=1.0-b --boots 2 --until 5
ok_eq "--boots and --until: a usage error" "$?" 2
campaign e3 plan --kernel a=1.0-a --kernel b=1.0-b --method ipmi
ok_eq "an unknown method: a usage error" "$?" 2
campaign e4 plan --kernel a=1.0-a --kernel a=1.0-b
ok_eq "a label twice: a usage error" "$?" 2
campaign p8 plan --kernel a=1.0-a --kernel b=1.0-x --method kexec --settle 0 noload
ID=$(sed -n 's/^campaign //p' p8.out)
campaign e5 start "$ID"
ok_eq "start: a kernel not in /boot is refused" "$?" 1
ok "saying which" grep -q "kernel b: the kernel /boot/vmlinuz-1.0-x" e5.err
ok "nothing installed" service_gone

# ---- kexec, grub and sdboot under a root prefix: told, never done ------------------------------
echo "BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda ro contest.campaign=X/3 quiet" >"$R/proc/cmdline"
campaign p9 plan --kernel a=1.0-a --kernel b=1.0-b,append=preempt=full --method kexec \
	--settle 0 noload
ID=$(sed -n 's/^campaign //p' p9.out)
campaign s9 start "$ID"
ok_eq "kexec: start exits 0" "$?" 0
ok_eq "kexec: the boot it would do, in boot.log (the running command line but BOOT_IMAGE and an old marker)" "$(cat "$(dir)/boot.log" | sed 's/; then .*//')" \
	"1 kexec_file_load /boot/vmlinuz-1.0-a initrd=/boot/initrd.img-1.0-a cmdline='root=/dev/vda ro quiet panic=10 contest.campaign=$ID/1'"
ok "kexec: no kernel configuration under the root: start says it cannot tell kexec_file_load" \
	grep -q "kexec: no configuration of the running kernel .* found (/boot/config-.*, /lib/modules/.*/config, /proc/config.gz): whether it has kexec_file_load(2)" s9.err
campaign ab9 abort "$ID"

# ---- kexec: kexec_file_load(2) in the running kernel and in every kernel ---------------------
echo 6.1-default >"$R/proc/sys/kernel/osrelease"
printf 'CONFIG_KEXEC=y\n# CONFIG_KEXEC_FILE is not set\n' >"$R/boot/config-6.1-default"
campaign p12 plan --kernel a=1.0-a --kernel b=1.0-b --method kexec --settle 0 noload
ID=$(sed -n 's/^campaign //p' p12.out)
campaign s12 start "$ID"
ok_eq "kexec: a running kernel without CONFIG_KEXEC_FILE: start refuses" "$?" 1
ok "saying it has kexec_load(2) only, where it read so, and the call contest loads by" \
	grep -q "the running kernel 6.1-default has kexec_load(2) only (CONFIG_KEXEC=y, not CONFIG_KEXEC_FILE, in /boot/config-6.1-default): contest loads the first kernel by kexec_file_load(2)" s12.err
ok "nothing installed" service_gone
rm "$R/boot/config-6.1-default"
printf '# CONFIG_KEXEC is not set\n' | gzip >"$R/proc/config.gz"
campaign s12b start "$ID"
ok_eq "no kexec at all in /proc/config.gz: refused" "$?" 1
ok "saying so" grep -q "the running kernel 6.1-default has no kexec (neither CONFIG_KEXEC nor CONFIG_KEXEC_FILE in /proc/config.gz)" s12b.err
printf 'CONFIG_KEXEC=y\nCONFIG_KEXEC_FILE=y\n' | gzip >"$R/proc/config.gz"
mkdir -p "$R/lib/modules/1.0-b"
printf 'CONFIG_KEXEC=y\n' >"$R/lib/modules/1.0-b/config"
campaign s12c start "$ID"
ok_eq "a kernel of the campaign without it, which could not load the next: refused" "$?" 1
ok "naming the kernel" \
	grep -q "kernel b: 1.0-b has kexec_load(2) only (CONFIG_KEXEC=y, not CONFIG_KEXEC_FILE, in /lib/modules/1.0-b/config): contest loads the next kernel by kexec_file_load(2)" s12c.err
ok "nothing installed" service_gone
printf 'CONFIG_KEXEC_FILE=y\n' >"$R/lib/modules/1.0-b/config"
campaign s12d start "$ID"
ok_eq "kexec_file_load(2) in the running kernel and b, a's configuration unknown: start exits 0" "$?" 0
ok "saying which call loads the kernels" \
	grep -q "kexec: the running kernel 6.1-default has kexec_file_load(2) (CONFIG_KEXEC_FILE=y in /proc/config.gz): contest loads each kernel by it, not by kexec-tools" s12d.err
ok "and where it looked for a's configuration" \
	grep -q "kexec: kernel a: no configuration of 1.0-a found (/boot/config-1.0-a, /lib/modules/1.0-a/config)" s12d.err
campaign ab12 abort "$ID"
rm -rf "$R/proc/config.gz" "$R/lib/modules"
campaign p10 plan --kernel a=1.0-a,entry=e-a --kernel b=1.0-b,entry=e-b --method grub \
	--settle 0 noload
ID=$(sed -n 's/^campaign //p' p10.out)
campaign s10 start "$ID"
ok_eq "grub: start refuses without GRUB_DEFAULT=saved" "$?" 1
ok "saying so" grep -q "GRUB_DEFAULT=saved" s10.err
mkdir -p "$R/etc/default" "$R/boot/grub"
echo GRUB_DEFAULT=saved >"$R/etc/default/grub"
: >"$R/boot/grub/grubenv"
campaign s10b start "$ID"
ok_eq "grub: with it, start exits 0" "$?" 0
ok "grub: grub-reboot ENTRY, in boot.log" grep -q "^1 grub-reboot e-a; then " "$(dir)/boot.log"
campaign ab10 abort "$ID"
campaign p11 plan --kernel a=1.0-a,entry=e-a --kernel b=1.0-b,entry=e-b --method sdboot \
	--settle 0 noload
ID=$(sed -n 's/^campaign //p' p11.out)
campaign s11 start "$ID"
ok "sdboot: bootctl set-oneshot ENTRY, in boot.log" \
	grep -q "^1 bootctl set-oneshot e-a; then " "$(dir)/boot.log"
campaign ab11 abort "$ID"
ok "nothing kexec-loaded, no unit on the host" host_untouched

done_testing
