#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Swift's default target, relative (target_mode 0: a flow's base RTT +
# allowance + fs), with the default share_base_rtt 1, at the testbed's
# scale (allowance SW_Q_US = 3 ms and fs as the absolute-target tests):
#  A. four flows from one sender, each starting 2 s (200 RTTs) after the
#     one before, into the queue the others hold.  Each takes the lowest
#     min RTT its namespace has seen to the destination, so none counts
#     the standing queue as propagation delay: Jain >= 0.9 over the last
#     6 s, no flow below half its fair share, the link >= 90% full
#     (measured 0.9998, 0.98, 95.1%).  With each flow's own minimum
#     (share_base_rtt 0) Jain 0.52 and the smallest flow 0.03 of its
#     share here, 0.18 for 8 flows 20 ms apart in the userspace model
#     (test_swift_law).
#  B. two base-RTT classes (10 and 20 ms, one sender namespace each), two
#     flows each, started together: every flow aims at the same queueing
#     delay above its own base RTT, where an absolute target starves the
#     long class (model: 0.00 of its fair share): Jain >= 0.9, smallest
#     flow >= half its fair share, the link >= 90% full (measured 0.956,
#     0.78, 95.5%; model 0.96, 0.79).  A class that
#     starts into a queue another class already holds still counts it as
#     base RTT (namespaces, standing for hosts, cannot share a minimum):
#     model Jain 0.53-0.82 at 2x; not asserted (README, "Swift").
source "$(dirname "$0")/swift_common.sh"
swift_require
ktap_set_plan 7

# swift_require set the testbed's values: relative, SW_Q_US, fs
tm=$(<"$SW_P/target_mode") bt=$(<"$SW_P/base_target_us") share=$(<"$SW_P/share_base_rtt")
log_info "target_mode $tm, base_target_us $bt, share_base_rtt $share"
[[ $tm == 0 && $bt == "$SW_Q_US" ]] || log_warn "not the relative target with the testbed's allowance"


# sr_window T1 T2: Jain, util and the smallest flow over its fair share
# (ss bytes_acked in 0.5 s bins) over [T1, T2) of the current run
sr_window() {
	net_summarize --window "$1" "$2" >/dev/null || return 1
	SR_JAIN=$(net_get jain) SR_UTIL=$(net_get util_pct)
	SR_LOW=$(fm_bins "$NET_RUN/flows.csv" 0.5 |
		awk -v a="$1" -v b="$2" '$1 > a && $1 <= b { s[$2] += $3 }
			END { for (f in s) { n++; t += s[f]; if (m == "" || s[f] < m) m = s[f] }
			      printf "%.3f", t ? m * n / t : 0 }')
	fm_bins "$NET_RUN/flows.csv" 1 | awk '{ printf "%s:%s=%.1f ", $1, $2, $3 / 1e6 } END { print "" }' |
		fold -w 150 | sed 's/^/# Mbit\/s per 1 s bin: /'
}

# A. four staggered flows from one sender
net_setup --rate-mbit "$SW_RATE" --rtt-ms "$SW_RTT" --limit-pkts 300
net_quickack
net_new_run "$NET_DIR/staggered"
okA=1
for k in 0 1 2 3; do
	net_start_flows --cc swift --n 1 --duration $((14 - 2 * k)) || okA=0
	((k < 3)) && sleep 2
done
net_wait_flows || { log_warn "A: a flow reported an error"; okA=0; }
s0=$(awk -F'\t' 'NR > 1 && $1 == 0 { print $5 }' "$NET_RUN/flows.tsv")
sr_window "$(fcalc "$s0 + 8")" "$(fcalc "$s0 + 14")" || okA=0
[[ $(net_get cc_ok) == 1 ]] || okA=0
jA=$SR_JAIN uA=$SR_UTIL lA=$SR_LOW
dcc_result relative_staggered_jain "$jA"
dcc_result relative_staggered_low_share "$lA"
dcc_result relative_staggered_util_pct "$uA"
ktap_test_result "A: four flows 2 s apart ran swift, relative target (target_mode $tm), share_base_rtt $share (the default, 1)" \
	[ "$okA$share$tm" = 110 ]
ktap_test_result "A: Jain $jA over the last 6 s (>= 0.9)" fge "${jA/nan/0}" 0.9
ktap_test_result "A: smallest flow $lA of its fair share (>= 0.5); the link $uA% full (>= 90%)" \
	eval 'fge "$lA" 0.5 && fge "${uA/nan/0}" 90'

# B. two base-RTT classes, started together
net_setup --senders 2 --rate-mbit "$SW_RATE" --rtt-ms "$SW_RTT,$((2 * SW_RTT))" --limit-pkts 300
net_quickack
net_new_run "$NET_DIR/classes"
okB=1
net_start_flows --cc swift --n 2 --from-sender 0 --duration 12 || okB=0
net_start_flows --cc swift --n 2 --from-sender 1 --duration 12 || okB=0
net_wait_flows || { log_warn "B: a flow reported an error"; okB=0; }
s0=$(awk -F'\t' 'NR > 1 && $1 == 0 { print $5 }' "$NET_RUN/flows.tsv")
sr_window "$(fcalc "$s0 + 5")" "$(fcalc "$s0 + 12")" || okB=0
[[ $(net_get cc_ok) == 1 ]] || okB=0
jB=$SR_JAIN uB=$SR_UTIL lB=$SR_LOW
dcc_result relative_classes_jain "$jB"
dcc_result relative_classes_low_share "$lB"
dcc_result relative_classes_util_pct "$uB"
ktap_test_result "B: 2 + 2 flows of base RTT $SW_RTT and $((2 * SW_RTT)) ms ran swift" [ "$okB" = 1 ]
ktap_test_result "B: Jain $jB over the last 7 s (>= 0.9)" fge "${jB/nan/0}" 0.9
ktap_test_result "B: smallest flow $lB of its fair share (>= 0.5); the link $uB% full (>= 90%)" \
	eval 'fge "$lB" 0.5 && fge "${uB/nan/0}" 90'
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
