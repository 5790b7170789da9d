#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two OSCAR flows, the second starting 5 s after the first:
# both within 20% of the fair share within a bounded time, and Jain's
# index >= 0.95 over the last half of the shared period.
#
# Bound: 8 s = 800 base RTTs, generous on purpose (timing-sensitive
# figures belong in the benchmark).  The paper reaches u = 0.5 in 1-2
# updates (Fig. 16) and the userspace model of this code in 2 RTTs
# (selftests/unit/test_oscar_law); on this testbed the first step often
# lands at ~40/60 (OSCAR's MIMD keeps the ratio it starts from: an equal
# split needs equal u before the join) and U_AI closes the rest (measured,
# tau_pct 100: 0.59-4.1 s in 5 of 5 runs, Jain 0.9999-1.0).
# A law that never equalises (no U_AI, or a wrong reference state) stays
# outside 20% and fails.  Throughput is judged in 0.5 s bins.
source "$(dirname "$0")/oscar_common.sh"
oscar_require
ktap_set_plan 5

JOIN=5 DUR2=16
BOUND_S=8
net_setup --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT" --limit-pkts 300
net_quickack
net_start_flows --cc oscar --n 1 --duration $((JOIN + DUR2))
sleep $JOIN
net_start_flows --cc oscar --n 1 --duration $DUR2
net_wait_flows || log_warn "a flow reported an error"
s2=$(awk 'NR > 1 && $1 == 1 { print $5 }' "$NET_RUN/flows.tsv")
end=$(fcalc "$s2 + $DUR2")
half=$(fcalc "($s2 + $end) / 2")
net_summarize --window "$half" "$end"
oscar_report fair
conv=$(fm_converge "$NET_RUN/flows.csv" "$s2" 0.5 0.2 0 1)
jain=$(net_get jain)
dcc_result fair_converge_s "$conv"
log_info "flow 1 joined at t=$s2 s; fair (within 20%) after $conv s = $(fcalc "$conv * 1000 / $OSC_RTT") base RTTs"
fm_bins "$NET_RUN/flows.csv" 1 | awk '{ printf "%s:%s=%.1f ", $1, $2, $3 / 1e6 } END { print "" }' | fold -w 150 | sed 's/^/# Mbit\/s per 1 s bin: /'

ktap_expect "both flows' senders ran oscar (cc_ok)" "$(net_get cc_ok)" == 1
ktap_expect "both within 20% of fair share after the join" "$conv" '<=' "$BOUND_S" s \
	"$(fcalc "$BOUND_S * 1000 / $OSC_RTT") RTTs; nan: never"
ktap_expect "Jain's index over the last half of the shared period" "$jain" '>=' 0.95
util=$(net_get util_pct)
ktap_expect "two flows' utilisation of the link" "$util" '>=' 90 %
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
