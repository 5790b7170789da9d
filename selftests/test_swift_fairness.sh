#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Eight Swift flows share the bottleneck: Jain's index >= 0.9
# over the steady state, the link stays full, and the mean queueing delay
# sits near the flow-scaled target: allowance + fs(W) with W the flows'
# mean window (rate x RTT), which is larger than one flow's (flow scaling,
# [S] 3.5).  Scale: see swift_common.sh.
source "$(dirname "$0")/swift_common.sh"
swift_require
ktap_set_plan 5

N=8 DUR=14 SKIP=5
net_setup --rate-mbit "$SW_RATE" --rtt-ms "$SW_RTT" --limit-pkts 300
net_quickack
swift_set_target
net_run_flows --cc swift --n $N --duration $DUR || log_warn "a flow reported an error"
last=$(net_last_start)
first=$(awk -F'\t' 'NR == 1 || $5 < m { m = $5 } END { print m }' "$NET_RUN/flows.tsv")
net_summarize --window "$(fcalc "$last + $SKIP")" "$(fcalc "$first + $DUR")"
swift_report fair
jain=$(net_get jain) util=$(net_get util_pct) qd=$(net_get mean_qdelay_ms) rtt=$(net_get mean_rtt_ms)
thr=()
for ((k = 0; k < N; k++)); do thr+=("$(fround "$(net_flow_get $k window_throughput_bps)/1e6" 1)"); done
log_info "per-flow Mbit/s: ${thr[*]}"
# mean window in packets: per-flow rate x mean RTT / 1448 B
w=$(fcalc "$(net_get agg_window_throughput_bps) / $N / 8 * $rtt / 1000 / 1448")
fs=$(swift_fs_us "$w")
tgt_ms=$(fcalc "($SW_Q_US + $fs) / 1000")
dcc_result fair_flow_scaled_target_ms "$tgt_ms"
log_info "mean window $(fround "$w" 1) packets: fs = $fs us, flow-scaled target $tgt_ms ms above the idle RTT"

ktap_expect "all $N flows' senders ran swift (cc_ok)" "$(net_get cc_ok)" == 1
ktap_expect "Jain's index over t=$(net_get window_t1)..$(net_get window_t2) s" "$jain" '>=' 0.9
ktap_expect "$N flows' utilisation of the link" "$util" '>=' 90 %
ktap_expect "mean queueing delay" "$qd" in "$(fcalc "0.7 * $tgt_ms")..$(fcalc "1.3 * $tgt_ms")" ms \
	"the flow-scaled target $tgt_ms ms +-30%"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
