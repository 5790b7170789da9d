#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Without ECN marks the modules still control on delay alone.
# Four flows (2 nscc + 2 mnscc) at maxwnd would stand a queue of ~5 BDP =
# 50 ms with no decrease at all (UE NSCC's MD needs ECN); the delay-derived
# marks must hold it near the target:
#  A. ECN negotiated (tcp_ecn=1) but the bottleneck never marks (pfifo),
#     with the backstop for such networks (ecn_backstop_mode 1): a delay
#     >= ecn_backstop_pct = 150% of the target is a mark until the path's
#     first CE, which never comes here.  (The default, UE's mode 0, has no
#     decrease on such a path but a loss's: 8 flows stand an 11-BDP queue
#     in the packet model, test_nscc_law.);
#  B. ECN not negotiated: a non-ECN path element.  The modules set
#     TCP_CONG_NEEDS_ECN, so their SYN always requests ECN and iperf3 -C's
#     nscc listener would accept it whatever tcp_ecn says; so the router
#     clears ECE/CWR in the senders' SYNs (net_setup --strip-ecn-syn), the
#     receiver answers without ECE, and ECN is not negotiated (ss shows
#     dctcp:fallback_mode on the data sockets; tcp_ecn=2 everywhere, the
#     bottleneck pfifo).  The modules mark from delay alone at
#     noecn_mark_pct = 125% of the target (the band from the target to it
#     is the fair-increase quadrant).
# Checks per case: every flow ran its CC, the ECN state is the intended
# one, >= 90% utilisation, mean queueing delay <= 3 x target, no drops
# (buffer 1500 packets).  Scale and settings: nscc_common.sh.
source "$(dirname "$0")/nscc_common.sh"
nscc_require
ktap_set_plan 14

N=4 DUR=10
mode0=$(<"$NS_P/ecn_backstop_mode")
dcc_on_exit "echo $mode0 >$NS_P/ecn_backstop_mode"
tgt_ms=$(fcalc "$NS_TARGET_US / 1000")
for case in A B; do
	if [[ $case == A ]]; then
		net_setup --senders $N --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn --limit-pkts 1500
		echo 1 >"$NS_P/ecn_backstop_mode" || log_warn "ecn_backstop_mode 1 refused"
		what="ECN negotiated, path never marks, ecn_backstop_mode 1"
	else
		echo "$mode0" >"$NS_P/ecn_backstop_mode"	# case A's sockets took theirs
		NET_ECN=0	# net_setup keeps case A's --ecn as its default otherwise
		net_setup --senders $N --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --limit-pkts 1500 \
			--strip-ecn-syn
		what="ECN not negotiated: the router strips ECE/CWR from SYNs"
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
		ktap_expect "A: ECN negotiated: ss lines of the data sockets with ECN info" "$en" '>' 0
		ktap_expect "A: ss lines with dctcp:fallback_mode" "$fb" == 0
	else
		# SYNs the router rewrote (pedit packet counts, every sender)
		strips=0
		for ((i = 0; i < N; i++)); do
			v=$(tc -n "$NET_NS_R" -s -j filter show dev "s$i" ingress |
				jq '[.[] | .options.actions[]? | select(.kind == "pedit") | .stats.packets] | add // 0')
			strips=$((strips + ${v:-0}))
		done
		ktap_expect "B: SYNs the router stripped of ECE/CWR" "$strips" '>' 0
		ktap_expect "B: ECN not negotiated: ss lines with dctcp:fallback_mode" "$fb" '>' 0
		ktap_expect "B: ss lines with ECN info" "$en" == 0
	fi
	ktap_expect "$case: utilisation" "$util" '>=' 90 %
	ktap_expect "$case: mean queueing delay" "$qd" '<=' "$(fcalc "3 * $tgt_ms")" ms "3 x the target"
	ktap_expect "$case: bottleneck drops" "$drops" == 0
done
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
