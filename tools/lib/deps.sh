# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Host dependencies of dcc's VM-based tests.  Source this file, then:
#
#   dcc_install_deps   apt-get install whatever of DCC_DEPS_PACKAGES is missing,
#                      and a second cloud kernel series (see below) when only
#                      one is installed (nothing at all, and no network, when
#                      all are present)
#   dcc_guest_kver     print the primary guest kernel version: the newest
#                      build of the OLDEST installed cloud kernel series
#                      (Debian 12's default kernel), or DCC_GUEST_KVER
#   dcc_guest_kvers    print every installed cloud kernel series' newest
#                      build, one per line, oldest series first: what
#                      `make check` builds and tests for
#   dcc_kver_series    print a kernel version's series (6.1.0-56-cloud-amd64
#                      -> 6.1)
#   dcc_resolve_kver   an installed guest kernel from a version or a series
#                      (--kver, DCC_GUEST_KVER)
#
# Kernel versions are always read from what is installed, never written
# down: Debian moves the ABI number with its security updates, and the
# second series is whatever newer one Debian 12's archive offers as a
# versioned meta package (linux-image-X.Y-cloud-amd64).
#
# All are safe under `set -euo pipefail`; they report errors on stderr and
# return non-zero.

# Everything tools/vmtest, `make check` and `make bench` need on the host.
# make, mawk, dash, tar etc. are also copied into the guest from here.
# linux-source-6.1 (its scripts/checkpatch.pl), sparse and perl: tools/lint.
# valgrind (callgrind) and binutils (objdump): tools/bench-callgrind and
# tools/divcheck, the per-ACK cost checks.  libns3-dev (ns-3's headers and
# pkg-config files; libgsl-dev for the .so links its pkg-config names), g++
# and pkg-config: sim/, the cores inside ns-3.  qemu-user: tools/tcg-cx16-check
# (the guests' CPU must not offer a CMPXCHG16B this QEMU gets wrong).
DCC_DEPS_PACKAGES=(
	qemu-system-x86
	qemu-user
	linux-image-cloud-amd64
	linux-headers-cloud-amd64
	iperf3
	iproute2
	ethtool
	kmod
	busybox-static
	cpio
	bpftrace
	dkms
	bc
	jq
	make
	libc6-dev
	procps
	util-linux
	findutils
	diffutils
	gzip
	xz-utils
	zstd
	tar
	mawk
	dash
	linux-source-6.1
	sparse
	perl
	python3
	valgrind
	binutils
	libns3-dev
	libgsl-dev
	g++
	pkg-config
)

# Print the packages of DCC_DEPS_PACKAGES that are not installed.
dcc_missing_deps() {
	# one dpkg-query for all; unknown packages print nothing (-> missing)
	local -A ok=()
	local p st
	while read -r p st; do
		[[ $st == ii* ]] && ok[${p%%:*}]=1
	done < <(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${DCC_DEPS_PACKAGES[@]}" 2>/dev/null || true)
	for p in "${DCC_DEPS_PACKAGES[@]}"; do
		[[ -n ${ok[$p]:-} ]] || echo "$p"
	done
}

dcc_install_deps() {
	local -a missing sudo=()
	command -v dpkg-query >/dev/null 2>&1 || {
		echo "dcc_install_deps: not a Debian system (no dpkg-query); install by hand: ${DCC_DEPS_PACKAGES[*]}" >&2
		return 1
	}
	mapfile -t missing < <(dcc_missing_deps)
	# A second kernel series (make check builds and tests both), when fewer
	# than two are installed and the package lists at hand offer a newer
	# one (after the update below on a fresh machine).  DCC_ONE_KERNEL=1
	# skips it.
	local -a second=()
	local want_second=0
	if [[ ${DCC_ONE_KERNEL:-0} != 1 ]] && (($(dcc_guest_kvers | wc -l) < 2)); then
		want_second=1
		mapfile -t second < <(dcc_newer_series_packages | tr ' ' '\n')
	fi
	if ((${#missing[@]} + ${#second[@]} == 0)); then
		((want_second)) && echo "dcc_install_deps: one cloud kernel series installed and" \
			"apt's lists offer no newer linux-image-X.Y-cloud-amd64 (apt-get update?);" \
			"testing one kernel" >&2
		return 0
	fi
	if ((EUID != 0)); then
		if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
			sudo=(sudo -n)
		else
			echo "dcc_install_deps: missing packages (${missing[*]} ${second[*]}) and not root (no passwordless sudo)" >&2
			return 1
		fi
	fi
	# update once (a fresh machine has no package lists), then install
	# quietly; noninteractive so iperf3's debconf question does not block.
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || {
		echo "dcc_install_deps: apt-get update failed" >&2
		return 1
	}
	if ((want_second)); then
		mapfile -t second < <(dcc_newer_series_packages | tr ' ' '\n')
		((${#second[@]})) || echo "dcc_install_deps: the archive offers no second cloud" \
			"kernel series (linux-image-X.Y-cloud-amd64); testing one kernel" >&2
	fi
	missing+=("${second[@]}")
	((${#missing[@]})) || return 0
	echo "dcc_install_deps: installing ${missing[*]}" >&2
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}" >&2 || {
		echo "dcc_install_deps: apt-get install ${missing[*]} failed" >&2
		return 1
	}
	mapfile -t missing < <(dcc_missing_deps)
	if ((${#missing[@]})); then
		echo "dcc_install_deps: still missing after install: ${missing[*]}" >&2
		return 1
	fi
}

# dcc_kver_series KVER: the kernel series (major.minor) of KVER.
dcc_kver_series() {
	[[ $1 =~ ^([0-9]+\.[0-9]+)[.-] ]] || return 1
	echo "${BASH_REMATCH[1]}"
}

# Every usable cloud kernel: /boot/vmlinuz-*-cloud-amd64 whose modules are
# in /lib/modules/$KVER and whose headers are in /usr/src/linux-headers-$KVER,
# newest first (version sort).
dcc_cloud_kvers() {
	local v kver
	while IFS= read -r v; do
		kver=${v#/boot/vmlinuz-}
		[[ -d /lib/modules/$kver/kernel && -d /usr/src/linux-headers-$kver ]] &&
			dcc_kver_series "$kver" >/dev/null && echo "$kver"
	done < <(compgen -G '/boot/vmlinuz-*-cloud-amd64' | sort -rV)
	return 0
}

# One kernel per installed series, its newest build; oldest series first.
dcc_guest_kvers() {
	local kver s
	local -A seen=()
	while IFS= read -r kver; do
		s=$(dcc_kver_series "$kver")
		[[ -n ${seen[$s]:-} ]] && continue
		seen[$s]=1
		echo "$kver"
	done < <(dcc_cloud_kvers) | sort -V
}

# The primary guest kernel: the newest build of the oldest installed series,
# i.e. the kernel a Debian 12 machine runs by default (linux-image-cloud-
# amd64); a newer series installed beside it (dcc_guest_kvers) never takes
# over the default runs.  DCC_GUEST_KVER in the environment overrides the
# choice: a version or a series X.Y (dcc_resolve_kver; it is checked).
dcc_guest_kver() {
	local kver
	if [[ -n ${DCC_GUEST_KVER:-} ]]; then
		dcc_resolve_kver "$DCC_GUEST_KVER" && return 0
		echo "dcc_guest_kver: DCC_GUEST_KVER=$DCC_GUEST_KVER is not an installed guest kernel" >&2
		return 1
	fi
	kver=$(dcc_guest_kvers | head -n 1)
	if [[ -n $kver ]]; then
		echo "$kver"
		return 0
	fi
	echo "dcc_guest_kver: no cloud kernel with modules and headers" \
		"(/boot/vmlinuz-*-cloud-amd64, /lib/modules/KVER, /usr/src/linux-headers-KVER);" \
		"install linux-image-cloud-amd64 linux-headers-cloud-amd64" >&2
	return 1
}

# The meta packages (image and headers) of the newest cloud kernel series
# the archive offers beyond the installed ones, as "IMAGE HEADERS"; nothing
# when there is none.  Debian 12 names them linux-image-X.Y-cloud-amd64 and
# linux-headers-X.Y-cloud-amd64 (its 6.12 series).  Reads apt's lists only.
dcc_newer_series_packages() {
	local newest='' s p
	newest=$(dcc_guest_kvers | tail -n 1)
	[[ -n $newest ]] && newest=$(dcc_kver_series "$newest")
	p=$(apt-cache pkgnames linux-image- 2>/dev/null |
		sed -n 's/^linux-image-\([0-9][0-9]*\.[0-9][0-9]*\)-cloud-amd64$/\1/p' | sort -V | tail -n 1)
	[[ -n $p ]] || return 0
	s=$p
	# only a series newer than every installed one
	if [[ -n $newest ]] && [[ $(printf '%s\n%s\n' "$newest" "$s" | sort -V | tail -n 1) == "$newest" ]]; then
		return 0
	fi
	apt-cache pkgnames "linux-headers-$s-cloud-amd64" 2>/dev/null |
		grep -qx "linux-headers-$s-cloud-amd64" || return 0
	echo "linux-image-$s-cloud-amd64 linux-headers-$s-cloud-amd64"
}

# dcc_resolve_kver ARG: the installed guest kernel ARG names: a full version
# (6.12.117+deb12-cloud-amd64) with its image, modules and headers, or a
# series (6.12: its newest installed build).  Prints it, or reports on
# stderr what is installed and returns 1.
dcc_resolve_kver() {
	local a=$1 k
	if [[ -r /boot/vmlinuz-$a && -d /lib/modules/$a/kernel ]]; then
		echo "$a"
		return 0
	fi
	if [[ $a =~ ^[0-9]+\.[0-9]+$ ]]; then
		while IFS= read -r k; do
			if [[ $(dcc_kver_series "$k") == "$a" ]]; then
				echo "$k"
				return 0
			fi
		done < <(dcc_guest_kvers)
	fi
	echo "no installed guest kernel '$a' (want a version with /boot/vmlinuz-VER and" \
		"/lib/modules/VER, or a series X.Y); installed: $(dcc_guest_kvers | tr '\n' ' ')" >&2
	return 1
}
