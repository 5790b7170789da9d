# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared setup of the NSCC / MNSCC scenario tests.
#
# Scale: 100 Mbit/s bottleneck, 10 ms base RTT (BDP 125 KB = 83 packets).
# The datacenter settings scaled to it:
#  - nic_mbps = 100 (the bottleneck is the host link), network_rtt_us =
#    10000 (fixed, so the gains do not follow the guest's ~1 ms of host
#    latency): scale_a = 125 KB / 150 KB = 0.83, so fi, eta and fast
#    increase are almost exactly the reference network's steps;
#  - target_Qdelay = 5 ms = 0.5 base RTT (FASTFLOW's target; UE's default
#    1.0 would sit above what maxwnd = 1.5 BDP lets one flow queue, and
#    5 ms is 5x the guest's RTT noise);
#  - ECN: RED step marking at K = 75 KB = 6 ms = 0.6 BDP (in the UE code's
#    Kmin..Kmax = 0.2..0.8 BDP), above a lone flow's standing queue (<=
#    0.5 BDP by maxwnd) and above the target, so marks and high delay come
#    together (MD quadrant) when flows share the link;
#  - receivers ACK every segment (net_quickack), as UE receivers do on CE.
# The module's values come from testbed_params.sh (shared with tools/bench);
# NSCC_TARGET_US overrides the target.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/net_lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/flow_metrics.sh"
source "$(dirname "${BASH_SOURCE[0]}")/testbed_params.sh"

NS_RATE=${NSCC_RATE_MBIT:-100}
NS_RTT=${NSCC_RTT_MS:-10}
NS_TARGET_US=${NSCC_TARGET_US:-$(dcc_testbed_value nscc "$NS_RATE" "$NS_RTT" target_us)}
NS_K=${NSCC_K_BYTES:-75000}
NS_P=/sys/module/tcp_nscc/parameters

nscc_require() {
	ktap_print_header
	require_root
	require_cmd iperf3 tc ss jq
	if ! modinfo tcp_nscc >/dev/null 2>&1; then
		[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "tcp_nscc.ko not installed"
	fi
	modprobe tcp_nscc || ktap_skip_all "modprobe tcp_nscc failed"
	# testbed_params.sh; at exit the defaults (nic_mbps 0,
	# network_rtt_us 0, target_us 0)
	dcc_on_exit 'dcc_testbed_restore nscc'
	dcc_testbed_params nscc "$NS_RATE" "$NS_RTT" target_us="$NS_TARGET_US" ||
		{ log_warn "tcp_nscc refused its testbed parameters"; exit "$KSFT_FAIL"; }
	dmesg_mark
}

# CE-marked fraction of the packets the bottleneck sent in [T1, T2]
# (queue.csv: cumulative marks and sent_pkts)
nscc_ce_frac() { # T1 T2 [DIR]
	awk -F, -v t1="$1" -v t2="$2" 'NR > 1 && $1 >= t1 && $1 <= t2 {
		if (!n++) { m0 = $5; s0 = $7 } m1 = $5; s1 = $7 }
		END { if (s1 > s0) printf "%.4f\n", (m1 - m0) / (s1 - s0); else print "nan" }' \
		"${3:-$NET_RUN}/queue.csv"
}

# Log a run's aggregate figures and keep them in results.tsv.
nscc_report() { # PREFIX
	local k v
	for k in util_pct jain mean_rtt_ms p99_rtt_ms mean_qdelay_ms mean_backlog_pkts \
		 max_backlog_pkts retransmits drops marks; do
		v=$(net_get $k)
		dcc_result "$1_$k" "$v"
		printf '%s=%s ' "$k" "$v"
	done | sed 's/^/# /'
	echo
}

