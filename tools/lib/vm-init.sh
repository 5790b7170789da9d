#!/usr/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
#
# /init of dcc's qemu test guest (PID 1; busybox sh, from the initramfs
# built by tools/lib/mkinitramfs.sh).  Sets the machine up, runs the command
# tools/vmtest put in /etc/dcc-vm/run.sh (bash, in /dcc, clean environment,
# under a watchdog), saves dmesg to /out/dmesg.txt, sends /out back to the
# host as a tar stream (second serial port or virtio-serial), prints the end
# marker with the exit code on the console, and powers off.
#
# Per-run settings: /etc/dcc-vm/config, written by tools/vmtest:
#   DCCVM_NONCE  per-run random token in the marker lines (so no output of
#                the command can fake them)
#   DCCVM_KVER   expected kernel version
#   DCCVM_DEADLINE  guest uptime (s) at which the command is stopped (the
#                host's timeout minus a margin, so dmesg and /out still come
#                back on a timeout)
# Every variable of this script is prefixed DCCVM_/_dv_: the command runs
# with `env -i`, and nothing of the test is sourced here.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# Under TCG every exec costs: ~50 ms for a dynamically linked binary (ld.so's
# relocations are emulated), ~8 ms for the static busybox.  Debian's busybox
# sh runs its own applets (mount, ln, mkdir, ...) for plain command names, so
# this script does its work with those, and names the few host tools it
# needs by path.

mount -t devtmpfs -o mode=0755 devtmpfs /dev 2>/dev/null
# stdio on the console even if the kernel could not open one for us
exec 0</dev/console 1>/dev/console 2>&1

_dv_fail() {
	echo "dcc-vm init: $*"
	# no end marker: the host reports the failure
	poweroff -f
	sleep 5
	reboot -f
}

mount -t proc -o nosuid,nodev,noexec proc /proc
mount -t sysfs -o nosuid,nodev,noexec sysfs /sys
mkdir -p /dev/pts /dev/shm /dev/mqueue
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /dev/shm
mount -t mqueue mqueue /dev/mqueue 2>/dev/null
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /tmp
mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t bpf -o mode=0700 bpf /sys/fs/bpf
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
# devtmpfs has no /dev/fd (bash process substitution needs it)
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
ln -sfn /proc/kcore /dev/core 2>/dev/null
mkdir -p /run/netns /run/lock /run/dcc-vm /var/tmp /out

hostname dcc-vm
ip link set lo up

[ -r /etc/dcc-vm/config ] || _dv_fail "no /etc/dcc-vm/config (the per-run archive is missing)"
# shellcheck source=/dev/null
. /etc/dcc-vm/config
[ -n "${DCCVM_NONCE:-}" ] || _dv_fail "DCCVM_NONCE not set"
_dv_kver=$(uname -r)
[ "$_dv_kver" = "${DCCVM_KVER:-$_dv_kver}" ] ||
	echo "dcc-vm init: warning: booted $_dv_kver, expected $DCCVM_KVER"

read -r _dv_t0 _dv_x </proc/uptime
_dv_limit=$((${DCCVM_DEADLINE:-3600} - ${_dv_t0%.*}))
[ "$_dv_limit" -ge 1 ] || _dv_limit=1
echo "@@DCC-VM-BEGIN-$DCCVM_NONCE uptime=$_dv_t0@@"
# The command: bash, in the repository copy, a clean environment, stdin
# from /dev/null.  coreutils' timeout puts it in its own process group and
# kills the group at the limit (KILL 5 s later).
# Its stdout+stderr go through a FIFO and `cat` to the console, so they are
# a pipe as in CI, not a tty (no colours from jq/ls/ip, no terminal-width
# layouts); a pipe would make the shell wait for background processes that
# keep the output open, the FIFO lets us stop waiting.
mkfifo /run/dcc-vm/output
cat /run/dcc-vm/output &
_dv_cat=$!
cd /dcc || _dv_fail "no /dcc (the per-run archive is missing)"
/usr/bin/env -i \
	PATH="$PATH" HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
	TERM=dumb LANG=C.UTF-8 TMPDIR=/tmp \
	DCC_OUT=/out DCC_KVER="$_dv_kver" DCC_IN_VM=1 \
	/usr/bin/timeout -k 5 "$_dv_limit" /bin/bash /etc/dcc-vm/run.sh \
	</dev/null >/run/dcc-vm/output 2>&1
_dv_rc=$?
cd /
# cat ends at EOF, unless something the command left running still holds
# the FIFO: give it 2 s to drain, then stop it.
(sleep 2; kill "$_dv_cat" 2>/dev/null) &
_dv_w=$!
wait "$_dv_cat" 2>/dev/null
kill "$_dv_w" 2>/dev/null
read -r _dv_t1 _dv_x </proc/uptime
# elapsed whole seconds; a 124/137 status at or after the limit is the watchdog
_dv_el=$((${_dv_t1%.*} - ${_dv_t0%.*}))
_dv_to=0
if [ "$_dv_rc" -eq 124 ] || [ "$_dv_rc" -eq 137 ]; then
	[ "$_dv_el" -ge "$_dv_limit" ] && _dv_to=1
fi

mkdir -p /out
dmesg >/out/dmesg.txt 2>&1
# /out back to the host as a tar stream into a file on the host: a small
# /out on the second serial port (ttyS1: no driver to load, but ~0.6 MB/s
# under TCG; the tty must be raw, and closing it waits until the UART has
# drained), a larger one through the virtio-serial port "dcc.results" (its
# modules are loaded only now, ~0.3 s; tens of MB/s).
_dv_vport() { # print the /dev node of the virtio-serial port named $1
	/usr/sbin/modprobe -a virtio_pci virtio_console 2>/dev/null || return 1
	_dv_i=0
	while [ "$_dv_i" -lt 60 ]; do # ports appear asynchronously
		for _dv_p in /sys/class/virtio-ports/*; do
			[ "$(cat "$_dv_p/name" 2>/dev/null)" = "$1" ] &&
				[ -c "/dev/${_dv_p##*/}" ] && echo "/dev/${_dv_p##*/}" && return 0
		done
		sleep 0.05
		_dv_i=$((_dv_i + 1))
	done
	return 1
}
_dv_tar=1 _dv_chan=none
if [ "$(du -sk /out | cut -f1)" -gt 256 ] && _dv_port=$(_dv_vport dcc.results); then
	tar -C /out -cf "$_dv_port" . && _dv_tar=0 _dv_chan=virtio
fi
if [ "$_dv_tar" != 0 ] && stty -F /dev/ttyS1 raw -echo 2>/dev/null; then
	tar -C /out -cf /dev/ttyS1 . && _dv_tar=0 _dv_chan=serial
fi
echo "@@DCC-VM-END-$DCCVM_NONCE rc=$_dv_rc timeout=$_dv_to elapsed=$_dv_el tar=$_dv_tar chan=$_dv_chan@@"
# power-off does not flush the console's tty buffer: stty applies its
# settings with tcsetattr(TCSADRAIN), which waits until the output is sent.
stty -F /dev/console onlcr 2>/dev/null
poweroff -f
sleep 5
reboot -f
