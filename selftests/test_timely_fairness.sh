#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Four patched-TIMELY flows, then four SQCC flows, joining 0.5 s apart
# Jain's index >= 0.9 over the last 4 s they all share, with
# the link full (>= 90 %).  Fairness is what patched TIMELY was made for,
# and SQCC keeps its blend.  Each flow starts at C/4 (init_rate_kbps =
# 25000), so the earlier ones are ahead when the later ones join; the blend's
# multiplicative term (beta err w, proportional to the rate) against the
# equal additive term delta (1 - w) equalises them (userspace model:
# Jain 0.998).  TIMELY is not run here: Alg. 1 has a continuum of fixed
# points and no fair one ([23]), the reason patched TIMELY exists; the
# model reports it (selftests/unit/test_timely_law).
source "$(dirname "$0")/timely_common.sh"
timely_require timely_p sqcc
ktap_set_plan 9

DUR=10 STAG=0.5
net_setup --rate-mbit "$TL_RATE" --rtt-ms "$TL_RTT" --limit-pkts 1000
net_quickack
for a in timely_p sqcc; do
	timely_init_rate "$a" 25000
	net_run_flows --cc "$a" --n 4 --stagger $STAG --duration $DUR || log_warn "a flow reported an error"
	last=$(awk -F'\t' '{ if ($5 > m) m = $5 } END { print m }' "$NET_RUN/flows.tsv")
	first=$(awk -F'\t' 'NR == 1 || $5 < m { m = $5 } END { print m }' "$NET_RUN/flows.tsv")
	end=$(fcalc "$first + $DUR")
	net_summarize --window "$(fcalc "$end - 4")" "$end"
	timely_report "fair_$a"
	jain=$(net_get jain) util=$(net_get util_pct)
	fm_bins "$NET_RUN/flows.csv" 1 | awk '{ printf "%s:%s=%.1f ", $1, $2, $3 / 1e6 } END { print "" }' |
		fold -w 150 | sed "s/^/# $a Mbit\/s per 1 s bin: /"
	ktap_expect "$a: all 4 flows' senders ran $a (cc_ok)" "$(net_get cc_ok)" == 1
	ktap_expect "$a: Jain's index over the last 4 s" "$jain" '>=' 0.9
	ktap_expect "$a: utilisation of the link" "$util" '>=' 90 %
	ktap_expect "$a: bottleneck drops" "$(net_get drops)" == 0
done
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
