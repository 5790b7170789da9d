#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ECN path for DCTCP-style algorithms: a RED bottleneck that CE-marks ECT
# packets above K bytes (net_setup --ecn-k-bytes); one dctcp flow must get
# marks and still fill the link.
#
# Env: ECN_RATE_MBIT (100), ECN_RTT_MS (10), ECN_K_BYTES (30000),
#      ECN_DURATION (6 s), ECN_MIN_UTIL_PCT (80), ECN_ATTEMPTS (2: the run is
#      repeated once if the throughput falls short, see the calibration test)
source "$(dirname "$0")/net_lib.sh"

RATE=${ECN_RATE_MBIT:-100}
RTT=${ECN_RTT_MS:-10}
K=${ECN_K_BYTES:-30000}
DUR=${ECN_DURATION:-6}
ATTEMPTS=${ECN_ATTEMPTS:-2}
MIN_UTIL=${ECN_MIN_UTIL_PCT:-80}

ktap_print_header
require_root
require_cmd ip tc ss iperf3 jq
net_cc_load dctcp || ktap_skip_all "tcp_dctcp not available"
ktap_set_plan 5

if ! net_setup --rate-mbit "$RATE" --rtt-ms "$RTT" --ecn-k-bytes "$K" --limit-pkts 200; then
	ktap_test_fail "topology setup (red ecn)"
	for _ in 2 3 4 5; do ktap_test_skip "needs the topology"; done
	ktap_finished
fi
ktap_test_pass "topology with RED ECN marking at K=$K bytes, $RATE Mbit/s, RTT $RTT ms"

for ((a = 1; a <= ATTEMPTS; a++)); do
	net_run_single dctcp "$DUR" 2
	log_info "attempt $a: $(net_summary_line)"
	fge "$(net_get util_pct)" "$MIN_UTIL" && break
done
t1=$(net_get window_t1) t2=$(net_get window_t2)
log_cmd net_qdisc_stats

marks=$(net_get marks)
drops=$(net_get drops)
util=$(net_get util_pct)
dcc_result ce_marks "$marks"
dcc_result drops "$drops"
dcc_result util_pct "$util"
dcc_result mean_backlog_bytes "$(net_get mean_backlog_bytes)"
dcc_result mean_rtt_ms "$(net_get mean_rtt_ms)"

scc=$(net_flow_get 0 sender_tcp_congestion)
if [[ $scc == dctcp ]]; then
	ktap_test_pass "iperf3 sender_tcp_congestion == dctcp"
else
	ktap_test_fail "iperf3 sender_tcp_congestion == dctcp (got '$scc')"
fi

ktap_expect "packets the bottleneck CE-marked" "$marks" '>' 0

# the sender got the CE marks echoed back (ss: delivered_ce, DCTCP's alpha)
ce=$(grep -a ' dctcp' "$NET_RUN/raw_ss.txt" 2>/dev/null |
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^delivered_ce:/) { v = substr($i, 14) + 0; if (v > m) m = v } } END { print m + 0 }')
dcc_result sender_delivered_ce "$ce"
ktap_expect "ECN echoes the sender saw (ss delivered_ce, its maximum)" "$ce" '>' 0

ktap_expect "dctcp's utilisation of $RATE Mbit/s in [$t1,$t2] s" "$util" '>=' "$MIN_UTIL" %
ktap_finished
