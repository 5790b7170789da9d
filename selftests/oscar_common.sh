# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared setup of the OSCAR scenario tests: the testbed bottleneck and the
# module's tunables.  Scale: 100 Mbit/s, 10 ms base RTT (BDP 125 KB, 83
# packets); D_target = 1.5 base RTT = 15 ms, tau = 10 ms, epsilon 1.5 ms.  mu is configured
# (line_rate_mbps = the bottleneck rate), as the paper assumes it known.
# The values come from testbed_params.sh (shared with tools/bench);
# OSC_EPS_US and OSC_TAU_PCT override epsilon and tau.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/net_lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/flow_metrics.sh"
source "$(dirname "${BASH_SOURCE[0]}")/testbed_params.sh"

OSC_RATE=${OSC_RATE_MBIT:-100}
OSC_RTT=${OSC_RTT_MS:-10}
OSC_DT_PCT=$(dcc_testbed_value oscar "$OSC_RATE" "$OSC_RTT" dtarget_pct)

oscar_require() {
	ktap_print_header
	require_root
	require_cmd iperf3 tc ss jq
	if ! modinfo tcp_oscar >/dev/null 2>&1; then
		[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "tcp_oscar.ko not installed"
	fi
	modprobe tcp_oscar || ktap_skip_all "modprobe tcp_oscar failed"
	# mu = the bottleneck rate, D_target 1.5 RTT_base, RTT_base =
	# tcp_min_rtt; epsilon must exceed the delay noise: the guest's
	# loaded RTT sits ~1 ms above its idle minimum, above the auto value
	# base/12: 1.5 ms; tau trades responsiveness for noise robustness
	# (paper 4.4, App. C.3): on this testbed a half-RTT batch lets the
	# per-batch gradient noise (max/min of two noisy signals) walk two
	# flows' split by sd 6.5% in 0.5 s bins; a one-RTT batch: 1.2%
	# (measured, icount, 2 flows).  At exit: the module defaults (eps_us
	# 0, tau_pct 50, line_rate_mbps 0, ...).
	dcc_on_exit 'dcc_testbed_restore oscar'
	dcc_testbed_params oscar "$OSC_RATE" "$OSC_RTT" dtarget_pct="$OSC_DT_PCT" \
		${OSC_EPS_US:+eps_us=$OSC_EPS_US} ${OSC_TAU_PCT:+tau_pct=$OSC_TAU_PCT} ||
		{ log_warn "tcp_oscar refused its testbed parameters"; exit "$KSFT_FAIL"; }
	dmesg_mark
}

# The scenario tests call net_quickack (ACK every segment).  OSCAR, like the RoCE
# transports it was designed on, assumes one ACK per packet; a Linux
# receiver delays ACKs, so a paced flow's RTT samples then include up to
# one inter-packet gap (measured: 15.1 ms instead of 10.8 ms at 2 Mbit/s
# over a 10 ms path), which the window loop reads as queue: the lower the
# rate, the larger the phantom queue -- a downward spiral.

# Log the run's aggregate figures (and keep them in results.tsv).
oscar_report() { # PREFIX
	local k v
	for k in util_pct jain mean_rtt_ms p99_rtt_ms mean_qdelay_ms mean_backlog_pkts \
		 max_backlog_pkts retransmits drops; do
		v=$(net_get $k)
		dcc_result "$1_$k" "$v"
		printf '%s=%s ' "$k" "$v"
	done | sed 's/^/# /'
	echo
}
