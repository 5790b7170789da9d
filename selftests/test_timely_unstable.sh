#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# SQCC's claim where patched TIMELY is unstable: 32-to-1 incast, patched
# TIMELY then SQCC on the same bottleneck in the same run.  At this scale
# (timely_common.sh: delta0 = C/500, beta 0.008) E = delta N / (beta C) = 8
# at N = 32, past the ~8 where patched TIMELY's fixed point stops holding
# the queue still (Eq. 6-8; the userspace model, test_timely_law: mean 694
# packets, p1..p99 361..1030, where N = 16 has std 1.3).  The claim: SQCC's
# mean bottleneck backlog at most half of patched TIMELY's, its p1..p99
# range narrower, its utilisation >= 90 % (model: 94 packets, 0.14 of
# patched TIMELY's, 0..289, util 0.99).  SQCC's N comes from this host's
# sqcc flows to the receiver (n_source auto = local: 32, N known, as the
# model's assertion has it).  Flows start at about C/32 (init_rate_kbps
# 3125) from one sender namespace, as the model's do; the buffer (2000
# packets, 240 ms) holds patched TIMELY's oscillation without loss, as the
# paper's lossless fabric would; the backlog is judged over t = 4..9.5 s of
# each 10 s run, sampled every 100 ms.
#
# The guest reproduces it only in part (icount, 6.1, 5 runs): patched
# TIMELY oscillates as in the model in 2 runs (mean 785-795, p1..p99
# 373..1038) and holds a steady queue in 3 (449-505, ranges 28-151);
# SQCC's mean is 83-154 packets (ratio 0.11-0.33) but its queue swings
# from empty (25-55 % of the samples) to 294-416 packets, utilisation
# 86.5-93.6 %: the claim held in 1 run of 5.  With update_clock 1 for
# both (1 run): 461 (444..479) and 233 (166..307), ratio 0.50, SQCC 93.9 %.
# Since the testbed tells SQCC the link rate (link_mbps; before, it took C
# = 1000 delta0, twice this link, and its delta = C k / N^2 was twice too
# large; 4 runs): SQCC's mean 96.7-107.6 packets (ratio 0.14-0.22), empty
# 29-38 % of the samples, utilisation 90.6-92.3 %; patched TIMELY oscillated
# in 2 runs (610 and 745, p1..p99 415..842 and 381..934), held 457-479
# (ranges 28-36) in 2, where SQCC's range (301-341) cannot be the
# narrower: the claim held in the 2 runs where patched TIMELY oscillated.
# So the claim's checks report a miss as a known gap (# TODO) and pass when
# they hold; what is asserted: every flow ran its CC, no drops, patched
# TIMELY's utilisation >= 90 %, no kernel warnings.
source "$(dirname "$0")/timely_common.sh"
timely_require timely_p sqcc
ktap_set_plan 5

N=32 DUR=10 SKIP=4
net_setup --rate-mbit "$TL_RATE" --rtt-ms "$TL_RTT" --limit-pkts 2000
net_quickack
declare -A Q R UTIL
for a in timely_p sqcc; do
	timely_init_rate "$a" 3125
	timely_incast_run "$a" $N $DUR $SKIP unstable
	Q[$a]=$TL_Q
	R[$a]=$TL_RANGE
	UTIL[$a]=$TL_UTIL
	ktap_test_result "$a: all $N flows used $a, no bottleneck drops ($(net_get drops)), utilisation ${UTIL[$a]}%" \
		eval '[[ $(net_get cc_ok) == 1 && $(net_get drops) == 0 ]]'
done
ratio=$(fcalc "${Q[sqcc]} / (${Q[timely_p]} + 0.001)")
dcc_result unstable_backlog_ratio_sqcc_over_timely_p "$ratio"
ktap_test_result "timely_p utilisation ${UTIL[timely_p]}% (>= 90%)" fge "${UTIL[timely_p]}" 90
claim="SQCC mean backlog ${Q[sqcc]} <= 0.5 x timely_p ${Q[timely_p]} packets (ratio $(fround "$ratio" 2); model 0.14), p1..p99 range ${R[sqcc]} < ${R[timely_p]}, SQCC utilisation ${UTIL[sqcc]}% >= 90%"
ktap_test_todo "$claim" \
	"in the guest patched TIMELY oscillates in some runs only, and SQCC's queue swings from empty (test header)" \
	eval 'fle "$ratio" 0.5 && (( R[sqcc] < R[timely_p] )) && fge "${UTIL[sqcc]}" 90'
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
