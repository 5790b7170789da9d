#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One Swift flow through the bottleneck: >= 90% of the bottleneck
# rate with the mean queueing delay within 50% of the configured target
# (allowance SW_Q_US above the idle RTT; at a one-flow window of ~100
# packets the flow-scaling term is ~0), and the decisions are the law's:
# additive increases and multiplicative decreases, at most one MD per RTT.
# Scale: see swift_common.sh.
source "$(dirname "$0")/swift_common.sh"
swift_require
ktap_set_plan 6

DUR=12 SKIP=4
TR=/sys/kernel/tracing
net_setup --rate-mbit "$SW_RATE" --rtt-ms "$SW_RTT" --limit-pkts 300
net_quickack
swift_set_target
trace_reset 16384
echo 1 >$TR/events/swift/swift_decision/enable
net_run_single swift $DUR $SKIP
echo 0 >$TR/events/swift/swift_decision/enable
grep swift_decision $TR/trace >"$NET_RUN/swift_trace.txt"
swift_report single
util=$(net_get util_pct) qd=$(net_get mean_qdelay_ms)
q_ms=$(fcalc "$SW_Q_US / 1000")

ktap_expect "every flow's sender ran swift (cc_ok, from iperf3 sender_tcp_congestion)" "$(net_get cc_ok)" == 1
ktap_expect "utilisation of $SW_RATE Mbit/s" "$util" '>=' 90 %
ktap_expect "mean queueing delay" "$qd" in "$(fcalc "0.5 * $q_ms")..$(fcalc "1.5 * $q_ms")" ms \
	"the target allowance $q_ms ms +-50%"
# the law at work: count actions (0 AI, 1 MD, 2 HOLD, 3 FR, 5 RTO)
acts=$(grep -o 'action=[0-9]' "$NET_RUN/swift_trace.txt" | sort | uniq -c | tr '\n' ' ')
nai=$(grep -c 'action=0' "$NET_RUN/swift_trace.txt")
nmd=$(grep -c 'action=1' "$NET_RUN/swift_trace.txt")
log_info "decisions by action (0 AI, 1 MD, 2 HOLD, 3 FR, 5 RTO, 7 NOAI): $acts"
dcc_result single_md "$nmd"
ktap_expect "additive increases" "$nai" '>' 1000
# at most one MD per RTT (~11 ms loaded): <= DUR * 1000 / 10 ms
ktap_expect "multiplicative decreases" "$nmd" in "11..$((DUR * 100))" "" "some, at most one per RTT"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
