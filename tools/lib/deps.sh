# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Host dependencies of dcc's VM-based tests.  Source this file, then:
#
#   dcc_install_deps   apt-get install whatever of DCC_DEPS_PACKAGES is missing
#                      (nothing at all, and no network, when all are present)
#   dcc_guest_kver     print the guest kernel version: the newest Debian cloud
#                      kernel in /boot that has its modules and its headers
#
# Both are safe under `set -euo pipefail`; they report errors on stderr and
# return non-zero.

# Everything tools/vmtest, `make check` and `make bench` need on the host.
# make, mawk, dash, tar etc. are also copied into the guest from here.
# linux-source-6.1 (its scripts/checkpatch.pl), sparse and perl: tools/lint.
DCC_DEPS_PACKAGES=(
	qemu-system-x86
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
	tar
	mawk
	dash
	linux-source-6.1
	sparse
	perl
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
	((${#missing[@]} == 0)) && return 0
	if ((EUID != 0)); then
		if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
			sudo=(sudo -n)
		else
			echo "dcc_install_deps: missing packages (${missing[*]}) and not root (no passwordless sudo)" >&2
			return 1
		fi
	fi
	echo "dcc_install_deps: installing ${missing[*]}" >&2
	# update once (a fresh machine has no package lists), then install
	# quietly; noninteractive so iperf3's debconf question does not block.
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || {
		echo "dcc_install_deps: apt-get update failed" >&2
		return 1
	}
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

# The guest kernel: newest /boot/vmlinuz-*-cloud-amd64 whose modules are in
# /lib/modules/$KVER and whose headers are in /usr/src/linux-headers-$KVER
# (the ABI number moves with Debian security updates: never hard-code it).
# DCC_GUEST_KVER in the environment overrides the choice (it is checked).
dcc_guest_kver() {
	local v kver
	if [[ -n ${DCC_GUEST_KVER:-} ]]; then
		if [[ -r /boot/vmlinuz-$DCC_GUEST_KVER && -d /lib/modules/$DCC_GUEST_KVER/kernel ]]; then
			echo "$DCC_GUEST_KVER"
			return 0
		fi
		echo "dcc_guest_kver: DCC_GUEST_KVER=$DCC_GUEST_KVER has no /boot/vmlinuz-$DCC_GUEST_KVER or no modules" >&2
		return 1
	fi
	# newest first (version sort of the ABI part)
	while IFS= read -r v; do
		kver=${v#/boot/vmlinuz-}
		if [[ -d /lib/modules/$kver/kernel && -d /usr/src/linux-headers-$kver ]]; then
			echo "$kver"
			return 0
		fi
	done < <(compgen -G '/boot/vmlinuz-*-cloud-amd64' | sort -rV)
	echo "dcc_guest_kver: no cloud kernel with modules and headers" \
		"(/boot/vmlinuz-*-cloud-amd64, /lib/modules/KVER, /usr/src/linux-headers-KVER);" \
		"install linux-image-cloud-amd64 linux-headers-cloud-amd64" >&2
	return 1
}
