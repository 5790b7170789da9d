#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 8-to-1 incast of OSCAR flows (issue 3): no loss, no retransmissions in
# steady state, >= 90% utilisation.  During the first RTTs the ~7 BDP burst
# raises the RTT from 10 to ~70 ms, which can make Linux's tail-loss probe
# (PTO ~ 2 srtt) resend a segment that was only queued: such spurious
# probes are counted and reported; a real loss (a bottleneck drop) fails,
# a retransmission after the first second is issue 3's open item (TODO).  All eight start together at line rate with a base-BDP
# window, so the first RTT puts ~7 BDP (~580 packets) into the queue (the
# paper's Fig. 20 peak of n x BDP); the buffer is 1000 packets (8 BDP), as
# the paper's lossless fabric would hold it.  OSCAR must then drain the
# queue to its target without loss.  Eight sender namespaces, one flow each.
source "$(dirname "$0")/oscar_common.sh"
oscar_require
ktap_set_plan 6

N=8 DUR=12
net_setup --senders $N --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT" --limit-pkts 1000
net_quickack
net_run_flows --cc oscar --n $N --duration $DUR || log_warn "a flow reported an error"
net_summarize --window 3 $DUR
oscar_report incast
retr=$(awk -F'\t' 'NR > 1 { s += $10 } END { print s + 0 }' "$NET_RUN/summary_flows.tsv")
retr_ss=$(fm_retrans_between "$NET_RUN/flows.csv" 1 $DUR)
dcc_result incast_startup_retrans "$retr"
dcc_result incast_steady_retrans "$retr_ss"
util=$(net_get util_pct) jain=$(net_get jain)

ktap_test_result "all $N flows used oscar" [ "$(net_get cc_ok)" = 1 ]
if [[ $(net_get drops) == 0 ]]; then
	ktap_test_pass "no bottleneck drops over the whole run"
else
	ktap_test_fail "$(net_get drops) bottleneck drops (want 0)"
fi
ktap_known_gap 3 "no retransmissions after t=1 s: $retr_ss ($retr in the whole run)" \
	"spurious retransmissions with zero drops in the incast" [ "$retr_ss" = 0 ]
if fge "$util" 90; then
	ktap_test_pass "utilisation $util% (>= 90%)"
else
	ktap_test_fail "utilisation $util% (>= 90%)"
fi
ktap_test_result "Jain's index $jain over t=3..$DUR s (>= 0.9)" fge "$jain" 0.9
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
