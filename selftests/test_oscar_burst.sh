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
# parameters (icount guest, K = 3): landing in 3-26 steps or not at all
# during the burst (a flow's u overshoots the +-20% band), sum u settled
# after 5-89, the link back after 3.8-6.8 RTT by default (the refill,
# parameter refill: docs/oscar.md) and after 33-87 with refill = 0, the
# paper's HAI (+0.01 of mu per batch).  So the steps are reported, not
# bounded; the bounds catch a broken law, refill or measurement:
# utilisation >= 80% during the burst, steps counted, the backlog sampled
# (2 ms bins: a queue held during the burst, none above the 1-BDP buffer),
# recovery within 200 RTT in every mode (the 30 RTT a refill should reach:
# reported, known gaps below).  The three runs use the same K = 3 burst.
source "$(dirname "$0")/oscar_common.sh"
source "$(dirname "$0")/burst_lib.sh"
oscar_require
require_cmd bpftrace
ktap_set_plan 15

K=3
P=/sys/module/tcp_oscar/parameters
dcc_on_exit "echo 1 >$P/refill"
net_setup --senders 2 --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT"
net_quickack
declare -A rec util land sumu qb qa
ok=1
for rf in 1 0 2; do
	echo "$rf" >"$P/refill" || { log_warn "refill $rf refused"; exit "$KSFT_FAIL"; }
	net_new_run "$NET_DIR/refill$rf"
	burst_run oscar $K 1 || ok=0
	net_summarize >/dev/null || ok=0
	[[ $(net_get cc_ok) == 1 ]] || ok=0
	read -r "rec[$rf]" "util[$rf]" "land[$rf]" "sumu[$rf]" "qb[$rf]" "qa[$rf]" _ <<<"$BURST_FIGS"
	dcc_result "burst_refill${rf}_rec_rtt" "${rec[$rf]}"
	dcc_result "burst_refill${rf}_util_pct" "${util[$rf]}"
	dcc_result "burst_refill${rf}_land_steps" "${land[$rf]}"
	dcc_result "burst_refill${rf}_sumu_steps" "${sumu[$rf]}"
	dcc_result "burst_refill${rf}_q_burst_bdp" "${qb[$rf]}"
	dcc_result "burst_refill${rf}_q_after_bdp" "${qa[$rf]}"
done
echo 1 >"$P/refill"

ktap_test_result "1 long + $K short flows ran oscar without error, three times" eval '((ok))'
for rf in 1 0; do
	ktap_expect "refill = $rf: utilisation during the burst" "${util[$rf]}" '>=' 80 %
done
ktap_test_result "steps counted from the oscar_batch tracepoint: every flow within 20% of 1/$((K + 1)) after ${land[0]} / ${land[1]}, sum u settled after ${sumu[0]} / ${sumu[1]} (refill 0 / 1; 999: not during the burst; the paper: <= 2 and <= 4)" \
	eval '[[ ${land[0]}${land[1]}${sumu[0]}${sumu[1]} =~ ^[0-9]+$ ]]'
# the backlog, sampled in 2 ms bins: a queue held during the burst, none
# above the 1-BDP buffer after the drain (nan: no drain, counted as 0)
for rf in 0 1; do
	ktap_expect "refill = $rf: backlog held during the burst" "${qb[$rf]}" in 0.05..1.05 BDP
	ktap_expect "refill = $rf: peak backlog after the drain" "${qa[$rf]/nan/0}" '<=' 1.05 BDP \
		"the 1-BDP buffer"
done
# Neither refill rule catches every drain (guest, 6 runs in a row,
# 2026-11-28: refill = 1 at 3.8-6.6 RTT or 74-108 RTT, 3 of 6 each;
# refill = 2 at 3.6-10 RTT, once 58.8).  Refill = 1 misses a drain that
# the burst's losses hid (the queue stood < 6 batches, HAI refills);
# refill = 2 misses one where the flows' own swing had emptied the queue
# before the burst ended (the long flow's last queued batches were 2, its
# 7 empty ones before the end unarmed, HAI from u = 0.36).  Both are
# reported as known gaps; what is asserted of every mode is the paper's
# HAI bound (below), which a refill that overshoots and stalls would break.
ktap_expect_todo "a drain the burst's losses hid: the queue stood < 6 batches, HAI refills (refill 2 catches it)" \
	"refill = 1 (the default): RTTs from the burst's end until the link carries >= 95% again" "${rec[1]}" '<=' 30 RTT
ktap_expect_todo "a queue drained by the flows' own swing before the burst's end: the run is not armed, HAI refills" \
	"refill = 2 (the armed run): RTTs from the burst's end until the link carries >= 95% again" "${rec[2]}" '<=' 30 RTT
for rf in 1 2 0; do
	ktap_expect "refill = $rf: RTTs from the burst's end until the link carries >= 95% again" \
		"${rec[$rf]/nan/999}" '<=' 200 RTT "the HAI bound$( ((rf)) || echo "; refill 0 is the paper's HAI")"
done
ktap_test_result "refill is back at the default (1)" [ "$(cat "$P/refill")" = 1 ]
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
