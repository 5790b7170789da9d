#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Packet spraying with one of 4 paths congested (issue 7, [M]'s scenario):
# net_setup --paths 4 --congested 1 --congested-ms 20: a quarter of each
# flow's packets cross a path with a 20 ms standing queue (2 x base RTT,
# 4 x target), arriving late and reordered; the shared 100 Mbit/s rate
# limit with ECN marking stays the bottleneck.  One nscc flow, then one
# mnscc flow, 10 s each, same topology.  NSCC decides on every ACK's delay:
# a quarter of them carry the 20 ms path, above the ECN backstop (150% of
# target), so it keeps cutting; MNSCC's median over the last 4 ACKs (lower
# median) needs 3 of 4 slow samples.  Packet model (test_nscc_law): NSCC
# 0.36, MNSCC 0.97 of the link at +20 ms.  Checks: both ran; MNSCC goodput
# >= NSCC's (2% tolerance for run-to-run noise), ratio recorded; MNSCC
# >= 70% of the link.  Linux defaults for reordering (tcp_reordering 3,
# RACK with adaptive reo_wnd), reported with the retransmissions.
source "$(dirname "$0")/nscc_common.sh"
nscc_require
ktap_set_plan 5

DUR=10 EXTRA=20
net_setup --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn-k-bytes "$NS_K" --limit-pkts 300 \
	--paths 4 --congested 1 --congested-ms $EXTRA
net_quickack
log_info "sender: tcp_reordering=$(ip netns exec "${NET_NS_S[0]}" sysctl -n net.ipv4.tcp_reordering) tcp_recovery=$(ip netns exec "${NET_NS_S[0]}" sysctl -n net.ipv4.tcp_recovery)"
declare -A U R
for cc in nscc mnscc; do
	net_new_run
	net_run_flows --cc $cc --n 1 --duration $DUR || log_warn "the flow reported an error"
	st=$(awk -F'\t' '{ print $5 }' "$NET_RUN/flows.tsv")
	net_summarize --window "$(fcalc "$st + 3")" "$(fcalc "$st + $DUR")"
	nscc_report "spray_$cc"
	U[$cc]=$(net_get util_pct)
	R[$cc]=$(net_get retransmits)
	ktap_test_result "$cc: the flow used $cc (util ${U[$cc]}%, ${R[$cc]} retransmissions)" \
		[ "$(net_get cc_ok)" = 1 ]
done
ratio=$(awk -v m="${U[mnscc]}" -v n="${U[nscc]}" 'BEGIN { if (n > 0) printf "%.3f", m / n; else print "inf" }')
dcc_result spray_goodput_ratio_mnscc_nscc "$ratio"
ktap_test_result "1 of 4 paths +$EXTRA ms: MNSCC goodput ${U[mnscc]}% >= NSCC's ${U[nscc]}% (ratio $ratio, 2% tolerance)" \
	fge "${U[mnscc]}" "$(fcalc "0.98 * ${U[nscc]}")"
# The model's 97% assumes no reordering cost; in Linux each late packet of
# the slow path looks lost to RACK (reo_wnd starts at min_rtt / 4 = 2.5 ms
# < 20 ms): thousands of spurious retransmissions, each a NACK to NSCC
# (cwnd -= lost bytes, QA trigger).  Measured 45.6% (NSCC 23.1%).
ktap_known_gap 7 "MNSCC keeps ${U[mnscc]}% of the link (>= 70%)" \
	"spurious loss recovery under 20 ms of reordering (RACK, NACK mapping) caps MNSCC" \
	fge "${U[mnscc]}" 70
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
