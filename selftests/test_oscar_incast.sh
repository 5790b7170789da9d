#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 8-to-1 incast of OSCAR flows: no loss, no retransmissions,
# >= 90% utilisation, Jain >= 0.9.  All eight start together at line rate
# with a base-BDP window, so the first RTT puts ~7 BDP (~580 packets) into
# the queue (the paper's Fig. 20 peak of n x BDP); the buffer is 1000
# packets (8 BDP), as the paper's lossless fabric would hold it.  OSCAR
# must then drain the queue to its target without loss.  Eight sender
# namespaces, one flow each.
#
# Tail-loss probes are off in the senders (tcp_early_retrans=0).  TLP
# resends the last segment when no ACK came for PTO = 2 srtt + 2 jiffies,
# srtt being the 10 ms handshake RTT at first.  Here the start-up queue is
# ~70 ms, so a flow whose window waits behind the others' is probed
# spuriously (measured, 3 icount runs: one DSACKed probe in the first
# 0.5 s in two runs, one on a FIN in the third; 0 drops in all).  In a
# datacenter the same incast queues 7 BDP = ~70 us against a PTO floor of
# 2 jiffies (8 ms at HZ=250), so the probe never fires: the artifact comes
# from stretching the RTT 1000x, not from OSCAR.  With TLP off, any
# retransmission is a fast retransmit or an RTO, i.e. a loss or a stall,
# which is what this test is about.  Counted by the sender kernels
# (TcpRetransSegs, which also covers a FIN and the control connections).
source "$(dirname "$0")/oscar_common.sh"
oscar_require
ktap_set_plan 6

N=8 DUR=12
net_setup --senders $N --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT" --limit-pkts 1000
net_quickack
tlp_on=0
for ns in "${NET_NS_S[@]}"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_early_retrans=0 || tlp_on=$((tlp_on + 1))
done
net_run_flows --cc oscar --n $N --duration $DUR || log_warn "a flow reported an error"
net_summarize --window 3 $DUR
oscar_report incast
retr=$(awk -F'\t' 'NR > 1 { s += $10 } END { print s + 0 }' "$NET_RUN/summary_flows.tsv")
retr_ss=$(fm_retrans_between "$NET_RUN/flows.csv" 1 $DUR)
net_tcp_counters TcpRetransSegs
retr_k=${NET_TCP_CNT[TcpRetransSegs]}
dcc_result incast_retrans_iperf "$retr"
dcc_result incast_steady_retrans "$retr_ss"
dcc_result incast_retrans_kernel "$retr_k"
util=$(net_get util_pct) jain=$(net_get jain)

ktap_test_result "all $N flows used oscar" [ "$(net_get cc_ok)" = 1 ]
ktap_expect "bottleneck drops over the whole run" "$(net_get drops)" == 0
ktap_test_result "no retransmissions: $retr_k segments resent by the senders' kernels, $retr by iperf3's count, $retr_ss after t=1 s (TLP left on in $tlp_on senders)" \
	[ $((retr_k + retr + tlp_on)) = 0 ]
ktap_expect "utilisation over t=3..$DUR s" "$util" '>=' 90 %
ktap_expect "Jain's index over t=3..$DUR s" "$jain" '>=' 0.9
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
