#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# SQCC's claim where patched TIMELY is unstable: 48-to-1 incast, patched
# TIMELY then SQCC on the same bottleneck in the same run, each flow started
# at C/48 (init_rate_kbps), the update clock the modules' default (at this
# link rate the papers' 64 KB completion event).  At this scale
# (timely_common.sh: delta0 = C/500, beta 0.008) E = delta N / (beta C) = 12
# at N = 48, well past the ~8 where patched TIMELY's fixed point stops
# holding the queue still (Eq. 6-8; the userspace model, test_timely_law:
# mean 886 packets, p1..p99 355..1110, where N = 16 has std 1.3).  The
# claim: SQCC's mean bottleneck backlog at most half of patched TIMELY's,
# its p1..p99 range narrower, its utilisation >= 90 % (model: 77 packets,
# 0.09 of patched TIMELY's, 0..270, util 0.99).  SQCC's N comes from this
# host's sqcc flows to the receiver (n_source auto = local: 48, N known, as
# the model's assertion has it).  The buffer (2000 packets, 240 ms) holds
# patched TIMELY's oscillation without loss, as the paper's lossless fabric
# would; the backlog is judged over t = 4..9.5 s of each 10 s run, sampled
# every 100 ms.
#
# The guest's patched TIMELY is not unstable in every run where the model's
# is (why is open; the guest's flows are window-capped and ACK-clocked, the
# model's paced): at N = 32 (E = 8) it oscillated in 4 runs of 9 (p1..p99
# 373..1038 at most) and held a steady 449-505 packets (ranges 28-151) in
# the others; at N = 48 (2026-11-29, icount, 6 runs on 6.1 with one in a
# full CI, 1 on 6.12) it oscillated in 5 (mean 661-869, ranges 314-810, std
# 80-258) and held 709 (range 99) and 657 (range 185, std 42) in two.
# SQCC's mean was 74-98 packets in all seven (0.10-0.13 of patched
# TIMELY's), its range 246-294 (its queue empties 20-36 % of the samples:
# each flow at C/48 updates once per ~25 RTT on the completion clock),
# utilisation 92.2-94.3 %.  So the mean and the utilisation are asserted in
# every run, the range only in a run that is in the claim's regime, where
# patched TIMELY's own range is >= UNSTABLE_RANGE packets (2.4 BDP; the
# steady runs' ranges were 28-185, the oscillating ones' 314-934); a steady
# run reports it as a skip.
source "$(dirname "$0")/timely_common.sh"
timely_require timely_p sqcc
ktap_set_plan 7

N=48 DUR=10 SKIP=4 UNSTABLE_RANGE=200
net_setup --rate-mbit "$TL_RATE" --rtt-ms "$TL_RTT" --limit-pkts 2000
net_quickack
declare -A Q R UTIL
for a in timely_p sqcc; do
	timely_init_rate "$a" $((TL_RATE * 1000 / N))
	timely_incast_run "$a" $N $DUR $SKIP unstable
	Q[$a]=$TL_Q
	R[$a]=$TL_RANGE
	UTIL[$a]=$TL_UTIL
	ktap_test_result "$a: all $N flows used $a, no bottleneck drops ($(net_get drops)), utilisation ${UTIL[$a]}%" \
		eval '[[ $(net_get cc_ok) == 1 && $(net_get drops) == 0 ]]'
done
ratio=$(fcalc "${Q[sqcc]} / (${Q[timely_p]} + 0.001)")
dcc_result unstable_backlog_ratio_sqcc_over_timely_p "$ratio"
ktap_expect "timely_p utilisation" "${UTIL[timely_p]}" '>=' 90 %
ktap_expect "SQCC mean backlog over patched TIMELY's (${Q[sqcc]} / ${Q[timely_p]} packets)" \
	"$(fround "$ratio" 3)" '<=' 0.5 "" "the paper: ~80% less; model 0.09"
ktap_expect "SQCC utilisation" "${UTIL[sqcc]}" '>=' 90 %
if ((R[timely_p] >= UNSTABLE_RANGE)); then
	ktap_expect "SQCC backlog p1..p99 range (patched TIMELY oscillated: ${R[timely_p]} packets)" \
		"${R[sqcc]}" '<' "${R[timely_p]}" packets
else
	ktap_test_skip "SQCC's range against patched TIMELY's: patched TIMELY held a steady queue this run (range ${R[timely_p]} < $UNSTABLE_RANGE packets), not the regime of the claim"
fi
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
