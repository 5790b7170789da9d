#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# OSCAR's convergence claim, measured its way (selftests/
# burst_lib.sh): one long flow runs; three short flows join it at line
# rate for 1 s (100 RTT) and stop.  From one bpftrace (2 ms bins of the
# bottleneck's bytes per flow, and the oscar_batch tracepoint's steps):
# utilisation during the burst, the steps until every flow's u is within
# 20% of 1/4 and until sum(u) stays in [0.85, 1.2], and the RTTs from the
# burst's end until the link carries >= 95% again in every RTT of 10.
# The paper claims O(1) steps for all three; measured with the testbed
# parameters (icount guest, K = 3, 5 runs): landing in 5-12 steps or not
# at all during the burst (a flow's u overshoots the +-20% band), sum u
# settled after 5-79, the link back after 49-79 RTT (HAI refills at +0.01
# of mu per batch once the long flow's queue is gone: README, OSCAR).
# So the steps are reported, not bounded; the bounds catch a broken law
# or measurement: utilisation >= 80% during the burst, steps counted,
# recovery within 200 RTT (the long flow runs ~280 RTT past the burst).
source "$(dirname "$0")/oscar_common.sh"
source "$(dirname "$0")/burst_lib.sh"
oscar_require
require_cmd bpftrace
ktap_set_plan 5

K=3
net_setup --senders 2 --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT"
net_quickack
net_new_run
ok=1
burst_run oscar $K 1 || ok=0
net_summarize >/dev/null || ok=0
read -r rec util land sumu <<<"$BURST_FIGS"
dcc_result burst_rec_rtt "$rec"
dcc_result burst_util_pct "$util"
dcc_result burst_land_steps "$land"
dcc_result burst_sumu_steps "$sumu"

ktap_test_result "1 long + $K short flows ran oscar without error" eval '((ok)) && [ "$(net_get cc_ok)" = 1 ]'
ktap_test_result "utilisation during the burst $util% (>= 80%)" fge "${util/nan/0}" 80
ktap_test_result "steps counted from the oscar_batch tracepoint: every flow within 20% of 1/$((K + 1)) after $land, sum u settled after $sumu (999: not during the burst; the paper: <= 2 and <= 4)" \
	eval '[[ $land =~ ^[0-9]+$ && $sumu =~ ^[0-9]+$ ]]'
ktap_test_result "link >= 95% again $rec RTT after the burst's end (<= 200)" fle "${rec/nan/999}" 200
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
