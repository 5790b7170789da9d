#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two OSCAR flows of different base RTTs (T and 2T, from two sender
# namespaces) share the bottleneck, the second starting 3 s (300 short
# RTTs) after the first; both orders.  With the module's defaults
# (auto RTT_base, shared_target 1: one queue target for both paths,
# scaled from the nearest path's RTT_base) neither flow may fall below
# half its fair share, Jain's index over the last half of the shared
# period >= 0.9, and the two fill >= 90% of the link.  With each flow's
# own D_target (shared_target 0, the paper's 1.5 RTT_base) the long
# flow's standing queue is congestion to the short one: in the userspace
# model (test_oscar_law, subtest 11) 0.30/0.70 and 0.83/0.17 of the link
# for the same two starts, Jain 0.69.  Shares are judged from ss's
# bytes_acked in 0.5 s bins (flow_metrics.sh).
source "$(dirname "$0")/oscar_common.sh"
oscar_require
ktap_set_plan 8

JOIN=3 DUR2=12
P=/sys/module/tcp_oscar/parameters
net_setup --senders 2 --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT,$((2 * OSC_RTT))" --limit-pkts 300
net_quickack
declare -A jain lo util
ok=1
for first in 0 1; do
	net_new_run "$NET_DIR/first$first"
	net_start_flows --cc oscar --n 1 --from-sender "$first" --duration $((JOIN + DUR2)) || ok=0
	sleep $JOIN
	net_start_flows --cc oscar --n 1 --from-sender $((1 - first)) --duration $DUR2 || ok=0
	net_wait_flows || { log_warn "a flow reported an error"; ok=0; }
	s2=$(awk 'NR > 1 && $1 == 1 { print $5 }' "$NET_RUN/flows.tsv")
	end=$(fcalc "$s2 + $DUR2")
	half=$(fcalc "($s2 + $end) / 2")
	net_summarize --window "$half" "$end" >/dev/null || ok=0
	[[ $(net_get cc_ok) == 1 ]] || ok=0
	jain[$first]=$(net_get jain)
	util[$first]=$(net_get util_pct)
	# the smaller flow's share of what the two carried, over the same window
	lo[$first]=$(fm_bins "$NET_RUN/flows.csv" 0.5 |
		awk -v a="$half" -v b="$end" '$1 >= a && $1 < b { s[$2] += $3 }
			END { t = s[0] + s[1]; m = s[0] < s[1] ? s[0] : s[1]; printf "%.3f", t ? m / t : 0 }')
	dcc_result "rttmix_first${first}_jain" "${jain[$first]}"
	dcc_result "rttmix_first${first}_low_share" "${lo[$first]}"
	dcc_result "rttmix_first${first}_util_pct" "${util[$first]}"
	log_info "$( ((first)) && echo long || echo short) first: Jain ${jain[$first]}, smaller share ${lo[$first]}, util ${util[$first]}%"
	fm_bins "$NET_RUN/flows.csv" 1 | awk '{ printf "%s:%s=%.1f ", $1, $2, $3 / 1e6 } END { print "" }' |
		fold -w 150 | sed 's/^/# Mbit\/s per 1 s bin: /'
done

st=$(cat "$P/shared_target")
ktap_test_result "both orders ran oscar without error, shared_target $st (the default, 1)" \
	eval "((ok)) && [ '$st' = 1 ]"
ktap_expect "short flow first: Jain over the last half" "${jain[0]}" '>=' 0.9
# Long flow first, the pair can lock at ~2:1 for the whole run (2026-11-28:
# 64.8 vs 30.9 Mbit/s from 6 s to 15 s, Jain 0.89 in a full CI and 0.90 in
# a guest of its own; two earlier CIs read 0.97 and 0.998): a known OSCAR
# limitation with mixed base RTTs, not met every run; the no-starvation
# bound below stays hard.
ktap_expect_todo "the long-first pair can lock at ~2:1 (mixed base RTTs)" \
	"long flow first: Jain over the last half" "${jain[1]}" '>=' 0.9
for o in 0 1; do
	k=$( ((o)) && echo "long flow first" || echo "short flow first")
	ktap_expect "$k: the smaller flow's share of the two" "${lo[$o]}" '>=' 0.25 '' \
		"half its fair share"
	ktap_expect "$k: utilisation of the link" "${util[$o]}" '>=' 90 %
done
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
