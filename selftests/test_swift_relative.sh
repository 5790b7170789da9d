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
#     model Jain 0.53-0.82 at 2x; not asserted here (C is the answer).
#  C. the per-path recipe for that case (docs/swift.md, "Mixed base
#     RTTs"): the same two classes, the 20 ms one crossing two more
#     routers (net_setup --ack-hops 0,2: its ACKs arrive with TTL 61, the
#     10 ms class's with 63), in a fabric of 5 ms per hop (RTT = 5 ms +
#     hops x 5 ms).  Absolute target (target_mode 1), base_target_us =
#     5 ms + the allowance, hop_us = 5000, hop_ttl 1 (the default: each
#     path's hop count from its ACKs' TTL, which dcc_lib's RX probe
#     records).  The 20 ms class starts 3 s (300 RTTs) after the 10 ms
#     one, into its standing queue.  Asserted: each flow's target (ss
#     mrtt) is its class's base RTT + the allowance + fs, i.e. the long
#     class's 2 hops x 5 ms = 10 ms higher (within 1.5 ms: fs differs
#     with the window); Jain >= 0.9, smallest flow >= half its fair
#     share, the link >= 90% full over the last 6 s (measured on 6.1 /
#     6.12: targets 13.3 and 23.3 ms, 9.96 / 9.97 apart; Jain 0.962 /
#     0.953, smallest 0.80 / 0.75, 95.5 / 95.7%).  Without the TTL's
#     count (hop_ttl 0, hops 0) both classes get the 10 ms class's
#     target and the long class starves (model: 0.00 of its share).
source "$(dirname "$0")/swift_common.sh"
swift_require
ktap_set_plan 14

# swift_require set the testbed's values: relative, SW_Q_US, fs
tm=$(<"$SW_P/target_mode") bt=$(<"$SW_P/base_target_us") share=$(<"$SW_P/share_base_rtt")
log_info "target_mode $tm, base_target_us $bt, share_base_rtt $share"
[[ $tm == 0 && $bt == "$SW_Q_US" ]] || log_warn "not the relative target with the testbed's allowance"

# sr_judge CASE KEY T1 T2: wait for the current run's flows, then Jain,
# util and the smallest flow over its fair share (ss bytes_acked in 0.5 s
# bins) over [T1, T2) s after its first flow started, as results KEY_*
# and three test results; SR_OK=0 if a flow failed or did not run swift
sr_judge() {
	local c=$1 k=$2 s0 j u l
	net_wait_flows || { log_warn "$c: a flow reported an error"; SR_OK=0; }
	s0=$(awk -F'\t' 'NR > 1 && $1 == 0 { print $5 }' "$NET_RUN/flows.tsv")
	net_summarize --window "$(fcalc "$s0 + $3")" "$(fcalc "$s0 + $4")" >/dev/null || SR_OK=0
	[[ $(net_get cc_ok) == 1 ]] || SR_OK=0
	j=$(net_get jain) u=$(net_get util_pct)
	l=$(fm_bins "$NET_RUN/flows.csv" 0.5 |
		awk -v a="$(fcalc "$s0 + $3")" -v b="$(fcalc "$s0 + $4")" '$1 > a && $1 <= b { s[$2] += $3 }
			END { for (f in s) { n++; t += s[f]; if (m == "" || s[f] < m) m = s[f] }
			      printf "%.3f", t ? m * n / t : 0 }')
	fm_bins "$NET_RUN/flows.csv" 1 | awk '{ printf "%s:%s=%.1f ", $1, $2, $3 / 1e6 } END { print "" }' |
		fold -w 150 | sed 's/^/# Mbit\/s per 1 s bin: /'
	dcc_result "relative_${k}_jain" "$j"
	dcc_result "relative_${k}_low_share" "$l"
	dcc_result "relative_${k}_util_pct" "$u"
	ktap_expect "$c: Jain over t = $3..$4 s" "$j" '>=' 0.9
	ktap_expect "$c: smallest flow, of its fair share" "$l" '>=' 0.5
	ktap_expect "$c: utilisation of the link" "$u" '>=' 90 %
}

# A. four staggered flows from one sender
net_setup --rate-mbit "$SW_RATE" --rtt-ms "$SW_RTT" --limit-pkts 300
net_quickack
net_new_run "$NET_DIR/staggered"
SR_OK=1
for k in 0 1 2 3; do
	net_start_flows --cc swift --n 1 --duration $((14 - 2 * k)) || SR_OK=0
	((k < 3)) && sleep 2
done
sr_judge A staggered 8 14
ktap_test_result "A: four flows 2 s apart ran swift, relative target (target_mode $tm), share_base_rtt $share (the default, 1)" \
	[ "$SR_OK$share$tm" = 110 ]

# B. two base-RTT classes, started together
net_setup --senders 2 --rate-mbit "$SW_RATE" --rtt-ms "$SW_RTT,$((2 * SW_RTT))" --limit-pkts 300
net_quickack
net_new_run "$NET_DIR/classes"
SR_OK=1
net_start_flows --cc swift --n 2 --from-sender 0 --duration 12 || SR_OK=0
net_start_flows --cc swift --n 2 --from-sender 1 --duration 12 || SR_OK=0
sr_judge B classes 5 12
ktap_test_result "B: 2 + 2 flows of base RTT $SW_RTT and $((2 * SW_RTT)) ms ran swift" [ "$SR_OK" = 1 ]

# C. the same classes, the long one 2 hops longer and started 3 s later,
# absolute target with each path's hops from its ACKs' TTL
hop_ms=$((SW_RTT / 2))
dcc_on_exit "echo 1 >$SW_P/hop_us; echo 1 >$SW_P/hop_ttl"
echo 1 >$SW_P/hop_ttl
echo $((hop_ms * 1000)) >$SW_P/hop_us
echo $((hop_ms * 1000 + SW_Q_US)) >$SW_P/base_target_us
echo 1 >$SW_P/target_mode
log_info "C: target_mode 1, base_target_us $(<$SW_P/base_target_us), hop_us $(<$SW_P/hop_us), hop_ttl $(<$SW_P/hop_ttl); dcc_lib rx_timestamps $(cat /sys/module/dcc_lib/parameters/rx_timestamps 2>/dev/null)"
net_setup --senders 2 --rate-mbit "$SW_RATE" --rtt-ms "$SW_RTT,$((2 * SW_RTT))" --ack-hops 0,2 \
	--limit-pkts 300
net_quickack
net_new_run "$NET_DIR/hops"
SR_OK=1
net_start_flows --cc swift --n 2 --from-sender 0 --duration 15 || SR_OK=0
sleep 3
net_start_flows --cc swift --n 2 --from-sender 1 --duration 12 || SR_OK=0
sleep 6
# each class's mean target (ss: bbr mrtt, ms), read while all four run
for i in 0 1; do
	tg[i]=$(ip netns exec "${NET_NS_S[i]}" ss -tinH state established 2>/dev/null |
		grep -o 'mrtt:[0-9.]*' | awk -F: '{ s += $2; n++ } END { printf "%.2f", n ? s / n : 0 }')
done
dt=$(fcalc "${tg[1]} - ${tg[0]}")
log_info "C: mean target ${tg[0]} ms ($SW_RTT ms class), ${tg[1]} ms ($((2 * SW_RTT)) ms class)"
dcc_result hops_target_diff_ms "$dt"
ktap_expect "C: the $((2 * SW_RTT)) ms class's target above the $SW_RTT ms class's (2 hops x $hop_ms ms from the TTL)" \
	"$dt" in "$((2 * hop_ms - 2)).5..$((2 * hop_ms + 1)).5" ms
sr_judge C hops 9 15
ktap_test_result "C: 2 + 2 flows, the second class 3 s later, ran swift, absolute target with hops from the TTL" [ "$SR_OK" = 1 ]
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
