#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the cached initramfs archives of dcc's qemu test guest (tools/vmtest).
#
#   mkinitramfs.sh key   base|bpftrace KVER   print the cache key of an archive
#   mkinitramfs.sh build base KVER DEST       DEST/root (staging tree) and
#                                             DEST/initramfs.cpio
#   mkinitramfs.sh build bpftrace KVER DEST BASEROOT
#                                             DEST/initramfs.cpio: bpftrace +
#                                             its LLVM libraries (what
#                                             BASEROOT lacks), ~215 MB
#
# The base archive (~60 MB uncompressed, newc cpio) holds:
#   - busybox-static (every applet the host binaries below do not provide)
#   - host binaries + their ldd libraries: bash, dash (= /bin/sh, as on
#     Debian), all of coreutils, iperf3, iproute2 (ip tc ss nstat ...),
#     ethtool, kmod (modprobe insmod rmmod lsmod depmod modinfo), procps
#     (sysctl ps pgrep pkill kill free top vmstat watch uptime), util-linux
#     (dmesg taskset nsenter unshare flock setsid chrt prlimit lscpu), bc, jq,
#     awk (the host's, mawk on Debian), sed, grep, find, xargs, diff, cmp, tar,
#     gzip, make; strace/xxd/ping/gawk/hexdump/column/... when the host has
#     them (else busybox's ping, xxd, hexdump, nc serve)
#   - the guest kernel's kernel/net/ module tree, drivers/net/{veth,ifb,dummy,
#     tun,macvlan,ipvlan,vrf,nlmon,virtio_net}, virtio_pci + virtio_console, all their
#     dependencies, depmod'ed
#   - tc's distribution tables, /etc/iproute2, minimal /etc
#   - /init (tools/lib/vm-init.sh)
# Paths follow Debian's merged /usr: /bin, /sbin, /lib, /lib64 are symlinks
# into /usr.  Everything per run (repository copy, .ko files, the command)
# goes into a second, small archive that tools/vmtest appends.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

die() { echo "mkinitramfs: $*" >&2; exit 1; }

# Binaries the guest must have (resolved in the host's PATH).
REQUIRED_BINS=(
	bash dash iperf3 ethtool kmod bc jq awk sed grep find xargs diff cmp
	tar gzip make
	ip tc ss nstat lnstat bridge
	sysctl ps pgrep pkill kill free top vmstat watch uptime pidwait
	dmesg taskset nsenter unshare flock setsid chrt prlimit lscpu
)
# Copied when the host has them.
OPTIONAL_BINS=(strace xxd ping ping6 gawk hexdump column nc socat tcpdump)
# kmod's personalities (Debian installs these as symlinks to kmod).
KMOD_LINKS=(modprobe insmod rmmod lsmod depmod modinfo)
# Modules besides the whole kernel/net/ tree: network drivers the tests may
# use (virtio_net for the guest's two wired NICs), and virtio-serial (/init
# sends a large /out back through it).
EXTRA_MODULES=(veth ifb dummy tun macvlan ipvlan vrf nlmon virtio_net virtio_pci virtio_console)

# a file in PATH (not a shell builtin such as kill)
bin_path() { type -P "$1" 2>/dev/null || true; }

# Everything in coreutils (the host's package list; fall back to a fixed set).
coreutils_bins() {
	if dpkg -L coreutils >/dev/null 2>&1; then
		dpkg -L coreutils | grep -E '^/(usr/)?s?bin/[^/]+$' | xargs -n1 basename
	else
		printf '%s\n' cat cp mv rm ln ls mkdir rmdir head tail wc tr cut sort uniq \
			tee env printf echo date sleep seq timeout stdbuf nproc id uname \
			basename dirname readlink realpath mktemp stat touch chmod chown \
			true false test expr numfmt od sha256sum md5sum base64 yes paste \
			comm join split fold nl tac dd df du sync
	fi
}

# The binaries of the base archive: "NAME PATH" lines.
base_bins() {
	local b p
	for b in "${REQUIRED_BINS[@]}" $(coreutils_bins); do
		p=$(bin_path "$b")
		[[ -n $p ]] || die "required binary '$b' not found on the host (tools/lib/deps.sh installs the packages)"
		echo "$b $p"
	done
	for b in "${OPTIONAL_BINS[@]}"; do
		p=$(bin_path "$b")
		[[ -n $p ]] && echo "$b $p"
	done
	p=$(bin_path busybox)
	[[ -n $p ]] || die "busybox not found (package busybox-static)"
	file_is_static "$p" || die "$p is not static: install busybox-static"
	echo "busybox $p"
}

file_is_static() { ! ldd "$1" >/dev/null 2>&1; }

# Modules of the base archive, relative to /lib/modules/KVER: kernel/net/**,
# EXTRA_MODULES (by name), and (modules.dep lists transitive dependencies)
# every dependency of those.
base_modules() {
	local kver=$1 mdir=/lib/modules/$1
	[[ -f $mdir/modules.dep ]] || die "$mdir/modules.dep missing"
	awk -v want=" ${EXTRA_MODULES[*]} " '
		{
			sub(/:.*/, ""); m = $0; sub(/.*\//, "", m); sub(/\.ko.*/, "", m)
			gsub(/-/, "_", m)
			if ($0 ~ /^kernel\/net\// || index(want, " " m " ")) print
		}' "$mdir/modules.dep" | awk -v dep="$mdir/modules.dep" '
		BEGIN { while ((getline l < dep) > 0) { split(l, f, ":"); deps[f[1]] = f[2] } }
		{ print; n = split(deps[$0], d, " "); for (i = 1; i <= n; i++) print d[i] }
	' | sort -u
}

# A version fingerprint of everything an archive is made of, cheap enough to
# compute on every run (~20 ms): the scripts, the kernel's module index, the
# dpkg database (package versions: libraries, coreutils, ...) and the binaries
# PATH resolves (a /usr/local override, say).
cache_key() {
	local what=$1 kver=$2 b p
	local -a paths=(/var/lib/dpkg/status "/lib/modules/$kver/modules.dep")
	for b in "${REQUIRED_BINS[@]}" "${OPTIONAL_BINS[@]}" busybox bpftrace; do
		p=$(bin_path "$b")
		[[ -n $p ]] && paths+=("$p")
	done
	{
		echo "v1 $what $kver"
		sha256sum "$here/mkinitramfs.sh" "$here/vm-init.sh"
		stat -L -c '%n %s %Y' "${paths[@]}" 2>/dev/null || true
	} | sha256sum | cut -c1-16
}

# Copy a host file to the same path under the staging root, dereferenced,
# with /bin /sbin /lib /lib64 mapped into /usr (they are symlinks there).
usr_path() {
	case $1 in
	/bin/* | /sbin/* | /lib/* | /lib64/*) echo "/usr$1" ;;
	*) echo "$1" ;;
	esac
}
put() { # put SRC [DEST-in-root]
	local src=$1 dst=${2:-$(usr_path "$1")}
	[[ -e $root$dst ]] && return 0
	mkdir -p "$root$(dirname "$dst")"
	cp -L --preserve=mode "$src" "$root$dst"
}

# Libraries of a set of ELF files (ldd), the dynamic loader included.
libs_of() {
	ldd "$@" 2>/dev/null | awk '
		/=> \// { print $3; next }
		/^[ \t]*\/[^ ]+ \(0x/ { print $1 }
	' | sort -u
}

skeleton() {
	local d
	for d in usr/bin usr/sbin usr/lib usr/lib64 dev proc sys sys/kernel/debug \
		sys/kernel/tracing tmp run root etc mnt out var/tmp var/lib; do
		mkdir -p "$root/$d"
	done
	ln -sfn usr/bin "$root/bin"
	ln -sfn usr/sbin "$root/sbin"
	ln -sfn usr/lib "$root/lib"
	ln -sfn usr/lib64 "$root/lib64"
	ln -sfn ../run "$root/var/run"
	chmod 1777 "$root/tmp" "$root/var/tmp"
	chmod 0700 "$root/root"
	# The kernel opens /dev/console for init before init can mount devtmpfs.
	if ((EUID == 0)); then
		mknod -m 600 "$root/dev/console" c 5 1
		mknod -m 666 "$root/dev/null" c 1 3
	fi
	cat >"$root/etc/passwd" <<-'EOF'
		root:x:0:0:root:/root:/bin/bash
		nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
	EOF
	cat >"$root/etc/group" <<-'EOF'
		root:x:0:
		tty:x:5:
		nogroup:x:65534:
	EOF
	cat >"$root/etc/hosts" <<-'EOF'
		127.0.0.1	localhost dcc-vm
		::1		localhost ip6-localhost ip6-loopback
	EOF
	cat >"$root/etc/nsswitch.conf" <<-'EOF'
		passwd: files
		group: files
		shadow: files
		hosts: files
		networks: files
		protocols: files
		services: files
	EOF
	echo dcc-vm >"$root/etc/hostname"
	printf '/bin/sh\n/bin/bash\n/bin/dash\n' >"$root/etc/shells"
	for d in /etc/protocols /etc/services /etc/ethertypes; do
		[[ -f $d ]] && cp -L "$d" "$root$d"
	done
	[[ -d /etc/iproute2 ]] && cp -rL /etc/iproute2 "$root/etc/"
	printf '/usr/local/lib\n/usr/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n' >"$root/etc/ld.so.conf"
	touch "$root/etc/fstab"
	return 0
}

build_base() {
	local kver=$1 name p b f a mdir=/lib/modules/$1
	skeleton
	# host binaries, each where the host has it (under /usr)
	local -a elfs=()
	local bins
	bins=$(base_bins) # (dies here, not in a process substitution)
	while read -r name p; do
		case $name in
		busybox) put "$p" /usr/bin/busybox; continue ;;
		awk) put "$p" /usr/bin/awk ;;
		*) put "$p" "$(dirname "$(usr_path "$p")")/$name" ;;
		esac
		elfs+=("$p")
	done <<<"$bins"
	# kmod personalities, as on Debian
	for b in "${KMOD_LINKS[@]}"; do ln -sfn ../bin/kmod "$root/usr/sbin/$b"; done
	ln -sfn ../sbin/lsmod "$root/usr/bin/lsmod"
	# /bin/sh is dash, as on Debian (make's recipes and #!/bin/sh scripts)
	ln -sfn dash "$root/usr/bin/sh"
	[[ -e $root/usr/bin/mawk || $(readlink -f "$(bin_path awk)") != */mawk ]] ||
		ln -sfn awk "$root/usr/bin/mawk"
	# coreutils' stdbuf preloads this
	[[ -d /usr/libexec/coreutils ]] && mkdir -p "$root/usr/libexec" &&
		cp -rL /usr/libexec/coreutils "$root/usr/libexec/"
	# libraries, by the path ldd reports (the loader included)
	while read -r f; do put "$f"; done < <(libs_of "${elfs[@]}")
	# busybox applets for whatever no host binary provides (not init:
	# our /init is a script)
	for a in $("$root/usr/bin/busybox" --list); do
		case $a in init | linuxrc | busybox) continue ;; esac
		[[ -e $root/usr/bin/$a || -e $root/usr/sbin/$a || -L $root/usr/bin/$a || -L $root/usr/sbin/$a ]] ||
			ln -s busybox "$root/usr/bin/$a"
	done
	# tc's delay distribution tables (netem `delay X Y distribution normal`)
	local dist
	dist=$(dpkg -L iproute2 2>/dev/null | grep -m1 '/tc/normal\.dist$' || true)
	[[ -n $dist ]] || dist=$(compgen -G '/usr/lib/*/tc/normal.dist' | head -n1 || true)
	[[ -n $dist ]] || dist=$(compgen -G '/usr/lib/tc/normal.dist' | head -n1 || true)
	if [[ -n $dist ]]; then
		dist=$(dirname "$dist")
		mkdir -p "$root$dist"
		cp -L "$dist"/*.dist "$root$dist/"
		# also at the upstream default /usr/lib/tc
		[[ $dist == /usr/lib/tc || $dist != /usr/lib/* ]] ||
			ln -sfn "${dist#/usr/lib/}" "$root/usr/lib/tc"
	else
		echo "mkinitramfs: warning: tc distribution tables not found" >&2
	fi
	# modules: the selection, plus what depmod/modprobe need to know the
	# built-in ones (modprobe of a built-in module then succeeds)
	local mroot=$root/usr/lib/modules/$kver
	mkdir -p "$mroot"
	while read -r f; do
		mkdir -p "$mroot/$(dirname "$f")"
		cp -L "$mdir/$f" "$mroot/$f"
	done < <(base_modules "$kver")
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[[ -f $mdir/$f ]] && cp -L "$mdir/$f" "$mroot/"
	done
	depmod -b "$root/usr" "$kver" || die "depmod failed"
	# the loader's cache (the libraries are also in its default paths)
	if ((EUID == 0)) && command -v ldconfig >/dev/null; then
		ldconfig -r "$root" 2>/dev/null || true
	fi
	install -m 0755 "$here/vm-init.sh" "$root/init"
}

build_bpftrace() {
	local kver=$1 baseroot=$2 p f
	p=$(bin_path bpftrace)
	[[ -n $p ]] || die "bpftrace not found (package bpftrace)"
	mkdir -p "$root/usr/bin"
	cp -L --preserve=mode "$p" "$root/usr/bin/bpftrace"
	# only the libraries the base archive lacks (LLVM, clang, z3, ...)
	while read -r f; do
		[[ -e $baseroot$(usr_path "$f") ]] || put "$f"
	done < <(libs_of "$p")
	# clang's own headers (stddef.h ...): bpftrace's C parser wants them
	# for struct definitions and #includes in scripts
	for f in /usr/lib/llvm-*/lib/clang/*/include; do
		[[ -d $f ]] || continue
		mkdir -p "$root$(dirname "$f")"
		cp -rL "$f" "$root$(dirname "$f")/"
	done
	# ld.so.cache covering the new libraries (replaces the base one)
	if ((EUID == 0)) && command -v ldconfig >/dev/null; then
		local merged
		merged=$(mktemp -d "${TMPDIR:-/tmp}/dcc-ldcache.XXXXXX")
		mkdir -p "$merged/etc" "$merged/usr"
		cp "$baseroot/etc/ld.so.conf" "$merged/etc/"
		cp -al "$baseroot/usr/lib" "$merged/usr/" 2>/dev/null || cp -a "$baseroot/usr/lib" "$merged/usr/"
		cp -al "$root/usr/lib/." "$merged/usr/lib/" 2>/dev/null || cp -a "$root/usr/lib/." "$merged/usr/lib/"
		ln -s usr/lib "$merged/lib"
		if ldconfig -r "$merged" 2>/dev/null; then
			mkdir -p "$root/etc"
			cp "$merged/etc/ld.so.cache" "$root/etc/"
		fi
		rm -rf "$merged"
	fi
}

# newc cpio of a staging tree, owned by root, parents before children.
mkcpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$2"
}

main() {
	local cmd=${1:-} what=${2:-} kver=${3:-}
	case $cmd/$what in
	key/base | key/bpftrace)
		[[ -n $kver ]] || die "usage: $0 key base|bpftrace KVER"
		cache_key "$what" "$kver"
		;;
	build/base | build/bpftrace)
		local dest=${4:-}
		[[ -n $kver && -n $dest ]] || die "usage: $0 build base KVER DEST | build bpftrace KVER DEST BASEROOT"
		[[ -d /lib/modules/$kver/kernel ]] || die "no modules for $kver in /lib/modules/$kver"
		mkdir -p "$dest"
		root=$dest/root
		rm -rf "$root"
		mkdir -p "$root"
		chmod 0755 "$root"
		if [[ $what == base ]]; then
			build_base "$kver"
		else
			[[ -d ${5:-} ]] || die "build bpftrace needs BASEROOT"
			build_bpftrace "$kver" "$5"
		fi
		mkcpio "$root" "$dest/initramfs.cpio.tmp"
		mv "$dest/initramfs.cpio.tmp" "$dest/initramfs.cpio"
		# the base tree stays (vmtest runs depmod over its modules, the
		# bpftrace build looks up which libraries it already has)
		[[ $what == base ]] || rm -rf "$root"
		;;
	*)
		die "usage: $0 key base|bpftrace KVER | build base KVER DEST | build bpftrace KVER DEST BASEROOT"
		;;
	esac
}

main "$@"
