# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared setup of the CCC scenario tests: the testbed bottleneck and the
# module's tunables.  Scale: 100 Mbit/s, 10 ms base RTT (BDP 125 KB, 83
# packets).  q_B = 5 ms = 0.5 RTT_min: the paper's ratio is 0.25 (5 us of
# a 20 us RTT_min), but the guest's software RTT noise is hundreds of us,
# and q_B must sit well above that noise; 5 ms is 42 packets.  R_l
# = the bottleneck rate (the paper's many-to-one: host link = bottleneck),
# RTT_min = tcp_min_rtt(), under-utilisation margin 5% RTT_min = 0.5 ms,
# gamma 0.2: the paper's values.  The values come from testbed_params.sh
# (shared with tools/bench); CCC_QB_US overrides q_B.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/net_lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/flow_metrics.sh"
source "$(dirname "${BASH_SOURCE[0]}")/testbed_params.sh"

CCC_RATE=${CCC_RATE_MBIT:-100}
CCC_RTT=${CCC_RTT_MS:-10}
CCC_QB_US=${CCC_QB_US:-$(dcc_testbed_value ccc "$CCC_RATE" "$CCC_RTT" q_b_us)}

ccc_require() {
	ktap_print_header
	require_root
	require_cmd iperf3 tc ss jq
	if ! modinfo tcp_ccc >/dev/null 2>&1; then
		[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "tcp_ccc.ko not installed"
	fi
	modprobe tcp_ccc || ktap_skip_all "modprobe tcp_ccc failed"
	# testbed_params.sh; at exit the defaults (q_b_us 50, line_rate_mbps 0)
	dcc_on_exit 'dcc_testbed_restore ccc'
	dcc_testbed_params ccc "$CCC_RATE" "$CCC_RTT" q_b_us="$CCC_QB_US" ||
		{ log_warn "tcp_ccc refused its testbed parameters"; exit "$KSFT_FAIL"; }
	dmesg_mark
}

# Log the run's aggregate figures (and keep them in results.tsv).
ccc_report() { # PREFIX
	local k v
	for k in util_pct jain mean_rtt_ms p99_rtt_ms mean_qdelay_ms mean_backlog_pkts \
		 max_backlog_pkts retransmits drops; do
		v=$(net_get $k)
		dcc_result "$1_$k" "$v"
		printf '%s=%s ' "$k" "$v"
	done | sed 's/^/# /'
	echo
}

# Region occupancy of a trace file (ccc:ccc_ack lines), as "A^i=n% ...".
ccc_regions() { # TRACEFILE
	grep -o 'region=[0-9]' "$1" | sort | uniq -c | awk '
		{ n[substr($2, 8)] = $1; t += $1 }
		END { split("A^i A^d H1i H2i H1d H2d", nm, " ")
		      for (i = 0; i < 6; i++) printf "%s=%.0f%% ", nm[i + 1], t ? 100 * n[i] / t : 0 }'
}

# Fairness (test_ccc_fairness.sh, test_ccc_incast.sh).  Runs once
# diverged (a join ended 80 vs 15 Mbit/s; incast Jain 0.33..0.998) for two
# reasons, both reproduced in selftests/unit/test_ccc_law.c's model:
#  - each socket's own tcp_min_rtt(): a flow that starts on CCC's standing
#    queue never sees the empty path, reads q up to q_B low and takes the
#    link (model: 99.9 vs 0.1).  tcp_ccc shares RTT_min among the CCC
#    flows of one network namespace to a destination (share_base_rtt,
#    with base_rtt_us 0): test_ccc_fairness.sh's two flows share one
#    sender namespace.  test_ccc_incast.sh's eight namespaces stand for
#    eight hosts, which cannot share a minimum: it sets base_rtt_us (the
#    paper's "RTT_min known");
#  - near q_B with the aggregate at C every flow is above Irr, the gate f
#    stops them all, and every other step is multiplicative and keeps the
#    rate ratio (model: a newcomer at 5-20% of C is within 20% of fair
#    after 530-1150 RTT_min).  The law adds an additive step there
#    (fair_ai_pml, ~R_l/32 per RTT_min above R_l/4, 2 sqrt(r/R_l) of it
#    below, faded out from q_B to 2 q_B): AIMD, 50-55 RTT_min with the
#    paper's window.
# Guest (tools/vmtest, DCC_VM_ICOUNT=1, this scale): a line-rate newcomer
# was within 20% after 0.59-1.59 s in 5 runs, but so it was under the
# paper's law (43 / 52 Mbit/s, Jain 0.987), so the join starts the
# newcomer from its initial window: 1.1-2.1 s, Jain 0.99-1.0 (paper's
# law: never, Jain 0.86).  Incast with base_rtt_us known: Jain 0.9995;
# the lone flow 95.6% with the paper's window (gain 1.1) and a 1.2 ms
# queue.  The join bound is 5 s = 500 RTT_min.
