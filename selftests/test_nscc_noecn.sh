#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Without ECN marks the modules still control on delay alone (issue 7).
# Four flows (2 nscc + 2 mnscc) at maxwnd would stand a queue of ~5 BDP =
# 50 ms with no decrease at all (UE NSCC's MD needs ECN); the delay-derived
# marks must hold it near the target:
#  A. ECN negotiated (tcp_ecn=1) but the bottleneck never marks (pfifo):
#     the backstop marks at ecn_backstop_pct = 150% of the target;
#  B. ECN not negotiated (iperf3 sets the CC after connect, tcp_ecn=2 does
#     not request it; ss shows dctcp:fallback_mode): marks at
#     noecn_mark_pct = 100% of the target.
# Checks per case: every flow ran its CC, the ECN state is the intended
# one, >= 90% utilisation, mean queueing delay <= 3 x target, no drops
# (buffer 1500 packets).  Scale and settings: nscc_common.sh.
source "$(dirname "$0")/nscc_common.sh"
nscc_require
ktap_set_plan 9

N=4 DUR=10
tgt_ms=$(fcalc "$NS_TARGET_US / 1000")
for case in A B; do
	if [[ $case == A ]]; then
		net_setup --senders $N --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn --limit-pkts 1500
		what="ECN negotiated, path never marks"
	else
		NET_ECN=0	# net_setup keeps case A's --ecn as its default otherwise
		net_setup --senders $N --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --limit-pkts 1500
		what="ECN not negotiated"
	fi
	net_quickack
	net_start_flows --cc nscc --n 2 --duration $DUR &&
		net_start_flows --cc mnscc --n 2 --duration $DUR &&
		net_wait_flows || log_warn "a flow reported an error"
	net_summarize --window 3 $DUR
	nscc_report "noecn_$case"
	util=$(net_get util_pct) qd=$(net_get mean_qdelay_ms) drops=$(net_get drops)
	# the sampler's ss lines of the data sockets
	fb=$(grep -a -c "fallback_mode" "$NET_RUN/raw_ss.txt")
	en=$(grep -a -c "dctcp:(ce_state" "$NET_RUN/raw_ss.txt")
	ktap_test_result "$case ($what): all flows used their CC" [ "$(net_get cc_ok)" = 1 ]
	if [[ $case == A ]]; then
		ktap_test_result "A: ECN negotiated on the data sockets (ss: $en lines with ECN info, $fb fallback)" \
			eval '((en > 0 && fb == 0))'
	else
		# iperf3 -C also sets the CC on the data listener, and a listener
		# whose CC needs ECN accepts an ECN SYN whatever tcp_ecn says:
		# this harness cannot turn ECN off yet (test_nscc_basic covers
		# the no-ECN socket on loopback)
		ktap_known_gap 7 "B: ECN not negotiated (ss: $fb lines dctcp:fallback_mode, $en with ECN)" \
			"iperf3 -C puts nscc on the listener, which then accepts ECN" eval '((fb > 0 && en == 0))'
	fi
	ktap_test_result "$case: utilisation $util% (>= 90%)" fge "$util" 90
	ktap_test_result "$case: mean queueing delay $qd ms <= 3 x target ($(fcalc "3 * $tgt_ms") ms; $drops drops)" \
		eval 'fle "$qd" "$(fcalc "3 * $tgt_ms")" && [ "$drops" = 0 ]'
done
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
