# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared setup of the Swift/MSwift scenario tests: the testbed
# bottleneck and the module's tunables, scaled to the guest.
#
# Scale: 100 Mbit/s, 10 ms base RTT (BDP 125 KB, 83 packets).  Swift's
# datacenter target (base + ~1-20 us of queue) assumes NIC timestamps; the
# guest's software RTT noise is hundreds of us, so the queueing allowance is
# SW_Q_US = 3 ms (0.3 base RTT, ~25 packets of queue) and the flow-scaling
# range keeps [H]'s ratio to it (fs_range = 5 x allowance = 15 ms, fs from
# 0.1 to fs_max_cwnd = 100 packets ~ the BDP: fs(83) ~ 0, fs(10) = 1.06 ms).
# The module's values come from testbed_params.sh (shared with tools/bench):
# the default relative target, SW_Q_US above each flow's base RTT
# (test_swift_relative measures it).  The tests of one path set the
# absolute target, as in Swift (target_mode 1, swift_set_target): the
# path's idle RTT measured by ping at setup + SW_Q_US, so that their
# figures do not depend on the base RTT estimate.  SW_Q_US overrides the
# allowance (and with it fs_range).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/net_lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/flow_metrics.sh"
source "$(dirname "${BASH_SOURCE[0]}")/testbed_params.sh"

# shellcheck disable=SC2034 # used by the tests that source this file
SW_RATE=${SW_RATE_MBIT:-100}
SW_RTT=${SW_RTT_MS:-10}
SW_Q_US=${SW_Q_US:-$(($(dcc_testbed_value swift "$SW_RATE" "$SW_RTT" fs_range_us) / 5))}
SW_FS_US=$((5 * SW_Q_US))
SW_P=/sys/module/tcp_swift/parameters

swift_require() {
	ktap_print_header
	require_root
	require_cmd iperf3 tc ss jq ping
	if ! modinfo tcp_swift >/dev/null 2>&1; then
		[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "tcp_swift.ko not installed"
	fi
	modprobe tcp_swift || ktap_skip_all "modprobe tcp_swift failed"
	# testbed_params.sh: relative target, SW_Q_US above the base RTT,
	# until swift_set_target makes it absolute; at exit the defaults
	# (fs_range_us 100, target_mode 0, base_target_us 25, fs_max_cwnd 256)
	dcc_on_exit 'dcc_testbed_restore swift'
	dcc_testbed_params swift "$SW_RATE" "$SW_RTT" fs_range_us="$SW_FS_US" \
		base_target_us="$SW_Q_US" ||
		{ log_warn "tcp_swift refused its testbed parameters"; exit "$KSFT_FAIL"; }
	dmesg_mark
}

# After net_setup (+ net_quickack): absolute target = idle RTT + SW_Q_US.
# Sets SW_BASE_US (idle RTT) and SW_TARGET_US.
swift_set_target() {
	local idle
	idle=$(net_ping_rtt --count 20) || idle=$SW_RTT
	SW_BASE_US=$(fround "$idle * 1000" 0)
	SW_TARGET_US=$((SW_BASE_US + SW_Q_US))
	echo 1 >$SW_P/target_mode
	echo "$SW_TARGET_US" >$SW_P/base_target_us
	log_info "idle RTT $idle ms: absolute target $SW_TARGET_US us (allowance $SW_Q_US us, fs_range $SW_FS_US us)"
	dcc_result idle_rtt_us "$SW_BASE_US"
}

# flow-scaling term (us) at a window of W packets, as swift_fs_ns computes it
swift_fs_us() { # W
	awk -v w="$1" -v r="$SW_FS_US" -v lo=0.1 -v hi="$(cat $SW_P/fs_max_cwnd)" 'BEGIN {
		if (w <= 0) { print 0; exit }
		a = 1 / sqrt(lo); b = 1 / sqrt(hi); x = 1 / sqrt(w)
		f = r * (x - b) / (a - b); if (f < 0) f = 0; if (f > r) f = r
		printf "%.0f\n", f }'
}

# Log the run's aggregate figures (and keep them in results.tsv).
swift_report() { # PREFIX
	local k v
	for k in util_pct jain mean_rtt_ms p99_rtt_ms mean_qdelay_ms mean_backlog_pkts \
		 max_backlog_pkts retransmits drops; do
		v=$(net_get $k)
		dcc_result "$1_$k" "$v"
		printf '%s=%s ' "$k" "$v"
	done | sed 's/^/# /'
	echo
}
