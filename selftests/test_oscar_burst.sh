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
# parameters (icount guest, K = 3, 3 runs): landing in 8-12 steps, sum u
# settled after 6-79, the link back after 58-79 RTT (HAI refills at +0.01
# of mu per batch once the long flow's queue is gone: README, OSCAR).
# Bounds are generous, to catch a broken law or measurement, not to hold
# the claim: utilisation >= 80% during the burst, landing <= 40 steps,
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
bt=$NET_RUN/burst.bt log=$NET_RUN/burst.txt
burst_bt oscar "$NET_BN_DEV" >"$bt"
BPFTRACE_MAP_KEYS_MAX=$BURST_MAP_KEYS bpftrace "$bt" >"$log" 2>&1 &
pid=$!
for ((i = 0; i < 300; i++)); do
	grep -q '^Attaching' "$log" 2>/dev/null && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null || { log_warn "bpftrace failed: $(tail -n 3 "$log")"; exit "$KSFT_FAIL"; }
ok=1
net_start_flows --cc oscar --n 1 --from-sender 0 --duration 6 || ok=0
sleep 1.5
((ok)) && { net_start_flows --cc oscar --n $K --from-sender 1 --duration 1 || ok=0; }
net_wait_flows || ok=0
kill -INT "$pid"
wait "$pid"
net_summarize >/dev/null || ok=0
read -r rec util land sumu <<<"$(burst_metrics "$log" $K "$OSC_RATE" "$OSC_RTT")"
dcc_result burst_rec_rtt "$rec"
dcc_result burst_util_pct "$util"
dcc_result burst_land_steps "$land"
dcc_result burst_sumu_steps "$sumu"

ktap_test_result "1 long + $K short flows ran oscar without error" eval '((ok)) && [ "$(net_get cc_ok)" = 1 ]'
ktap_test_result "utilisation during the burst $util% (>= 80%)" fge "${util/nan/0}" 80
ktap_test_result "every flow within 20% of 1/$((K + 1)) after $land steps (<= 40; sum u settled after $sumu)" \
	eval '[[ $land =~ ^[0-9]+$ ]] && ((land <= 40))'
ktap_test_result "link >= 95% again $rec RTT after the burst's end (<= 200)" fle "${rec/nan/999}" 200
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
