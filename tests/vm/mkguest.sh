#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mkguest.sh - make the qemu guest of the campaign test from Debian
# packages, without installing anything on this machine.
#
#	sh tests/vm/mkguest.sh DIR
#
# DIR (created, empty or missing) receives:
#   vmlinuz-a, vmlinuz-b  the two arms: linux-image-amd64's kernel and
#                         linux-image-cloud-amd64's (releases in releases)
#   initrd.img            one initramfs (cpio, newc, gzip) for both arms
#   disk.img              the persistent disk: raw, ext4, holding /boot
#                         (both kernels and the initramfs, for kexec), and
#                         var/lib/contest and results, filled by the guest
#   releases              "a RELEASE" and "b RELEASE", a line each
# and keeps its scratch (the packages and what they unpack to) in
# DIR/scratch, which the caller removes with DIR.
#
# The kernel packages are unpacked with dpkg -x, never installed (dpkg -i
# would run the kernel's postinst hooks: update-initramfs, update-grub).
# Packages come from CONTEST_VM_DEBS, a directory holding kexec-tools_*.deb,
# linux-image-amd64_*.deb and linux-image-cloud-amd64_*.deb (the two
# meta-packages, whose Depends name the real linux-image-6.* packages), or
# else from `apt-get download`; the real kernel packages are always fetched
# with `apt-get download` into DIR/scratch.  Environment: CONTEST, the
# contest binary to put in the guest (default: ./contest).
#
# The initramfs holds busybox (busybox-static, installed here), contest and
# kexec (kexec-tools) with the shared libraries ldd lists for them, the
# modules each arm needs to reach the disk (virtio_pci, virtio_blk; ext4
# and what it needs where it is a module), the guest's init, campaign
# script and workload (tests/vm/README.md).
set -eu

[ $# = 1 ] || { echo "usage: mkguest.sh DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
contest=${CONTEST:-./contest}
mkdir -p "$out/scratch"
out=$(cd "$out" && pwd)
s=$out/scratch
[ -x "$contest" ] || { echo "mkguest.sh: no contest binary at $contest (CONTEST)" >&2; exit 1; }
for t in busybox cpio gzip dpkg-deb mkfs.ext4 ldd; do
	command -v "$t" >/dev/null 2>&1 || { echo "mkguest.sh: $t not found" >&2; exit 1; }
done
busybox=$(command -v busybox)
# busybox-static: the guest has no libc of its own but what ldd copies
ldd "$busybox" >/dev/null 2>&1 && { echo "mkguest.sh: $busybox is not static (busybox-static)" >&2; exit 1; }

# ---- packages -------------------------------------------------------------
mkdir -p "$s/debs"
deb() {	# deb NAME: the path of package NAME's .deb, fetched if need be
	f=$(ls "${CONTEST_VM_DEBS:-/nonexistent}/$1"_*.deb "$s/debs/$1"_*.deb 2>/dev/null | head -1)
	if [ -z "$f" ]; then
		(cd "$s/debs" && apt-get download "$1" >apt.log 2>&1) ||
			{ echo "mkguest.sh: apt-get download $1 failed:" >&2; tail -3 "$s/debs/apt.log" >&2; exit 1; }
		f=$(ls "$s/debs/$1"_*.deb | head -1)
	fi
	echo "$f"
}
real_image() {	# real_image META: the linux-image-6.* package META depends on
	dpkg-deb -f "$(deb "$1")" Depends | tr ',' '\n' | sed -n 's/^ *\(linux-image-[0-9][^ ]*\).*/\1/p' | head -1
}
for arm in a b; do
	case $arm in a) meta=linux-image-amd64 ;; b) meta=linux-image-cloud-amd64 ;; esac
	pkg=$(real_image $meta)
	[ -n "$pkg" ] || { echo "mkguest.sh: $meta depends on no linux-image-* package" >&2; exit 1; }
	mkdir -p "$s/$arm"
	dpkg-deb -x "$(deb "$pkg")" "$s/$arm"
	rel=$(ls "$s/$arm/lib/modules")
	echo "$arm $rel"
done >"$out/releases"
mkdir -p "$s/kexec-tools" "$s/libs"
dpkg-deb -x "$(deb kexec-tools)" "$s/kexec-tools"
# kexec links libraries this machine may not have (libxenmisc and the Xen
# libraries behind it): the packages kexec-tools depends on, and theirs,
# that are not installed here are fetched and unpacked into scratch/libs.
fetch_deps() {	# fetch_deps DEB
	for p in $(dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/:any//' | tr -d ' '); do
		dpkg -s "$p" >/dev/null 2>&1 && continue
		[ -e "$s/libs/.$p" ] && continue
		: >"$s/libs/.$p"
		f=$(deb "$p")
		dpkg-deb -x "$f" "$s/libs"
		fetch_deps "$f"
	done
}
fetch_deps "$(deb kexec-tools)"
LD_LIBRARY_PATH=$s/libs/lib/x86_64-linux-gnu:$s/libs/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH

# ---- the initramfs --------------------------------------------------------
r=$s/root
mkdir -p "$r/bin" "$r/sbin" "$r/usr/bin" "$r/dev" "$r/proc" "$r/sys" "$r/tmp" \
	"$r/mnt/disk" "$r/var/lib" "$r/etc" "$r/vm"
cp "$busybox" "$r/bin/busybox"
ln -s busybox "$r/bin/sh"
cp "$contest" "$r/usr/bin/contest"
cp "$s/kexec-tools/sbin/kexec" "$r/sbin/kexec"
libs() {	# libs BINARY: copy the shared libraries BINARY links into the root
	# (those unpacked in scratch/libs to the same place under /)
	if ldd "$1" | grep 'not found'; then
		echo "mkguest.sh: $1 links libraries found nowhere" >&2
		exit 1
	fi
	ldd "$1" | awk '/=>/ { print $3 } /^[ \t]*\// { print $1 }' | while read -r l; do
		[ -f "$l" ] || continue
		g=${l#"$s/libs"}
		mkdir -p "$r$(dirname "$g")"
		cp -L "$l" "$r$g"
	done
}
libs "$contest"
libs "$r/sbin/kexec"
echo 'root:x:0:0:root:/root:/bin/sh' >"$r/etc/passwd"
echo 'root:x:0:' >"$r/etc/group"
# Each arm's modules to mount the disk, in load order (dependencies first,
# read from each module's .modinfo: the packages carry no modules.dep).
# ext4 is built in on the cloud kernel, a module on the generic one.
while read -r arm rel; do
	m=$s/$arm/lib/modules/$rel
	mkdir -p "$r/lib/modules/$rel"
	: >"$r/lib/modules/$rel/load"
	add() {
		f=$(find "$m/kernel" -name "$1.ko" -o -name "$1.ko.xz" | head -1)
		[ -n "$f" ] || return 0	# built in
		grep -qx "${f##*/}" "$r/lib/modules/$rel/load" && return 0
		for d in $(tr '\0' '\n' <"$f" | sed -n 's/^depends=//p' | tr ',' ' '); do
			add "$d"
		done
		f=$(find "$m/kernel" -name "$1.ko" -o -name "$1.ko.xz" | head -1)	# add "$d" set it
		cp "$f" "$r/lib/modules/$rel/"
		echo "${f##*/}" >>"$r/lib/modules/$rel/load"
	}
	for mod in virtio_pci virtio_blk crc32c_generic ext4; do add $mod; done
done <"$out/releases"
cp "$here/init" "$r/init"
cp "$here/guest-campaign.sh" "$r/vm/campaign.sh"
chmod 755 "$r/init" "$r/vm/campaign.sh"
# The workload: contest's builtin one needs cc and make, too heavy for an
# initramfs; instead `-w cmd:/vm/work` compresses four 100 KiB text files
# with busybox gzip -9 (about a second of CPU under TCG).
mkdir -p "$r/vm/work"
for i in 1 2 3 4; do seq 1 20000 >"$r/vm/work/f$i.txt"; done
(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$out/initrd.img"

# ---- the disk -------------------------------------------------------------
d=$s/disk
mkdir -p "$d/boot" "$d/var/lib/contest" "$d/results"
while read -r arm rel; do
	cp "$s/$arm/boot/vmlinuz-$rel" "$out/vmlinuz-$arm"
	cp "$out/vmlinuz-$arm" "$d/boot/vmlinuz-$arm"
	echo "$rel" >"$d/boot/release-$arm"
done <"$out/releases"
cp "$out/initrd.img" "$d/boot/initrd.img"
rm -f "$out/disk.img"
truncate -s 512M "$out/disk.img"
mkfs.ext4 -q -F -L contestvm -d "$d" "$out/disk.img"
rm -rf "$s/root" "$s/disk"
