#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two CCC flows, the second starting 3 s after the first: both
# within 20% of the fair share within a bounded time, and Jain's index >=
# 0.95 over the last half of the shared period, the link still full and
# the queue at the target (mean queueing delay within 50% of q_B).
#
# The first flow starts at the line rate (the paper's convention), the
# newcomer at its initial window per RTT (start_mode=1 for its socket:
# ~12 Mbit/s, 12% of C), the hard case: with the paper's window (the
# default) the pair sits at q_B, where every step of the paper's law is
# rate-proportional, so it keeps whatever ratio the join made; the
# additive fairness step (fair_ai_pml, near the target on either side of
# q_B) levels it.  Guest (icount): 1.1-2.1 s to 20%, Jain 0.9915-0.9998,
# queue 5.5-5.6 ms (6 runs); with the step only below q_B (the previous
# law) never within 20% in 10 s: 31.0 vs 64.7 Mbit/s, Jain 0.898; with
# fair_ai_pml = 0 (the paper's law) never either (Jain 0.86, measured
# with cwnd_qb 1); the model: 50-55 RTT_min from 5% of C
# (selftests/unit/test_ccc_law), the paper "within several RTTs"
# (Fig. 5).  Full CI runs since read 1.6, 2.1, 3.6 and 5.6 s (that one
# held ~1.6:1 for 5 s before the step levelled it).  Bound: 8 s = 800
# RTT_min, generous on purpose (timing-sensitive figures belong in the
# benchmark; a law that never levels reads nan and fails).  Throughput is
# judged in 0.5 s bins.
source "$(dirname "$0")/ccc_common.sh"
ccc_require
ktap_set_plan 6

JOIN=3 DUR2=10
BOUND_S=8
TR=/sys/kernel/tracing
net_setup --rate-mbit "$CCC_RATE" --rtt-ms "$CCC_RTT" --limit-pkts 300
net_quickack
trace_reset 16384
echo 1 >$TR/events/ccc/ccc_ack/enable
net_start_flows --cc ccc --n 1 --duration $((JOIN + DUR2))
sleep $JOIN
# start_mode is read when a socket initialises: the newcomer's only
dcc_on_exit 'echo 0 >/sys/module/tcp_ccc/parameters/start_mode'
echo 1 >/sys/module/tcp_ccc/parameters/start_mode
net_start_flows --cc ccc --n 1 --duration $DUR2
net_wait_flows || log_warn "a flow reported an error"
echo 0 >$TR/events/ccc/ccc_ack/enable
grep ccc_ack $TR/trace >"$NET_RUN/ccc_trace.txt"
s2=$(awk 'NR > 1 && $1 == 1 { print $5 }' "$NET_RUN/flows.tsv")
end=$(fcalc "$s2 + $DUR2")
half=$(fcalc "($s2 + $end) / 2")
net_summarize --window "$half" "$end"
ccc_report fair
conv=$(fm_converge "$NET_RUN/flows.csv" "$s2" 0.5 0.2 0 1)
jain=$(net_get jain)
dcc_result fair_converge_s "$conv"
log_info "flow 1 joined at t=$s2 s; fair (within 20%) after $conv s = $(fcalc "$conv * 1000 / $CCC_RTT") base RTTs"
log_info "regions (share of ACKs, last part of the run): $(ccc_regions "$NET_RUN/ccc_trace.txt")"
fm_bins "$NET_RUN/flows.csv" 1 | awk '{ printf "%s:%s=%.1f ", $1, $2, $3 / 1e6 } END { print "" }' | fold -w 150 | sed 's/^/# Mbit\/s per 1 s bin: /'

ktap_expect "both flows' senders ran ccc (cc_ok)" "$(net_get cc_ok)" == 1
ktap_expect "both within 20% of fair share after the join" "$conv" '<=' "$BOUND_S" s \
	"$(fcalc "$BOUND_S * 1000 / $CCC_RTT") RTTs; nan: never"
ktap_expect "Jain's index over the last half of the shared period" "$jain" '>=' 0.95
util=$(net_get util_pct) qd=$(net_get mean_qdelay_ms) qb_ms=$(fcalc "$CCC_QB_US / 1000")
ktap_expect "two flows' utilisation of the link" "$util" '>=' 90 %
ktap_expect "two flows' mean queueing delay" "$qd" in "$(fcalc "0.5 * $qb_ms")..$(fcalc "1.5 * $qb_ms")" ms \
	"the target q_B = $qb_ms ms +-50%"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
