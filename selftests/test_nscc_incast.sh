#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 8-to-1 incast: 4 nscc and 4 mnscc flows from 8 sender
# namespaces start together, each at maxwnd = 1.5 BDP (UE's line-rate
# start), into the ECN-marking bottleneck: ~11 BDP (~900 packets) arrive in
# the first RTT, so the buffer holds 1500 packets, as a lossless fabric
# would.  Checks: every flow ran its CC; no loss over the whole run (no
# drop, no RTO, no resend but tail-loss probes); >= 90% utilisation and
# Jain >= 0.9 over t = 3..10 s (the two variants share the link fairly: without spraying MNSCC's median is the
# raw delay's); the steady queue is back near the target (mean queueing
# delay <= 3 x target).  The receiver's eight data sockets run nscc or
# mnscc with ECN (ss at t = 4 s; iperf3 sets the client's -C on the
# server's data socket): CE is echoed per packet, DCTCP-style, not as
# Linux's classic ECE-until-CWR of the namespace's default (cubic).
# Scale and settings: nscc_common.sh.
source "$(dirname "$0")/nscc_common.sh"
nscc_require
ktap_set_plan 7

N=8 DUR=10
net_setup --senders $N --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn-k-bytes "$NS_K" --limit-pkts 1500
net_quickack
net_start_flows --cc nscc --n 4 --duration $DUR &&
	net_start_flows --cc mnscc --n 4 --duration $DUR || log_warn "a flow did not start"
sleep 4
# the receiver's sockets: ss prints each as two lines (addresses, info);
# a data socket is one that has received more than 1 MB
rcv=$(ss -N "$NET_NS_D" -tinH state established 2>/dev/null |
	awk 'NR % 2 == 1 { next } match($0, /bytes_received:[0-9]+/) &&
		substr($0, RSTART + 15, RLENGTH - 15) + 0 > 1e6 { n++
			if ($0 ~ / m?nscc / && $0 ~ /dctcp:\(ce_state/) k++ }
		END { printf "%d %d", n, k }')
read -r rcv_n rcv_ok <<<"$rcv"
net_wait_flows || log_warn "a flow reported an error"
net_summarize --window 3 $DUR
nscc_report incast
util=$(net_get util_pct) jain=$(net_get jain) qd=$(net_get mean_qdelay_ms)
retr=$(awk -F'\t' 'NR > 1 { s += $10 } END { print s + 0 }' "$NET_RUN/summary_flows.tsv")
dcc_result incast_retrans "$retr"
net_tcp_counters TcpRetransSegs TcpExtTCPLossProbes TcpExtTCPTimeouts TcpExtTCPFastRetrans \
	TcpExtTCPSlowStartRetrans TcpExtTCPSpuriousRTOs TcpExtTCPDSACKRecv
log_info "senders' kernel counters: $NET_TCP_CNT_LINE"
k_retr=${NET_TCP_CNT[TcpRetransSegs]} k_tlp=${NET_TCP_CNT[TcpExtTCPLossProbes]}
k_rto=${NET_TCP_CNT[TcpExtTCPTimeouts]}
log_info "per flow (bit/s, t=3..$DUR s): $(awk -F'\t' 'NR > 1 { printf "%s:%s=%.1fM ", $1, $2, $8 / 1e6 }' "$NET_RUN/summary_flows.tsv")"
tgt_ms=$(fcalc "$NS_TARGET_US / 1000")

ktap_test_result "all $N flows used their CC (4 nscc, 4 mnscc)" [ "$(net_get cc_ok)" = 1 ]
ktap_expect "receiver data sockets running nscc or mnscc with ECN (per-packet CE echo), of $rcv_n" \
	"$rcv_ok" == $N
# The bottleneck is RED with ecn nodrop (net_lib): ECT packets are marked
# above K and non-ECT ones (SYNs, handshake ACKs) are queued, not dropped,
# so all eight flows start together.  (With RED's default early drop of
# non-ECT packets a late SYN cost one flow a 1 s RTO: 2-4 retransmissions
# and Jain 0.87 in some runs.)  No loss: nothing dropped at the bottleneck,
# no retransmission timeout, and every segment the senders' kernels resent
# was a tail-loss probe.  A probe goes out when a flow's ACKs pause for
# ~2 smoothed RTTs (+ 2 jiffies), which the start's queue can cause without
# any loss: it holds the smoothed RTT at 28-62 ms (3-6 base RTTs) around
# t = 0.5 s.  One CI run saw 1 resent segment with 0 drops (the counters
# were not logged then); a later run logged the same case as 1 resent
# segment, 1 tail-loss probe, 0 RTOs.  A probe is the kernel's timer, not
# the CC's decision.  Fast retransmits, RTOs or drops are losses.
no_loss() { [ "$(net_get drops)" = 0 ] && [ "$k_rto" = 0 ] && [ "$k_retr" -le "$k_tlp" ] && [ "$retr" -le "$k_retr" ]; }
ktap_test_result "no loss: $(net_get drops) packets dropped, $k_rto RTOs, $k_retr segments resent ($k_tlp tail-loss probes; iperf3 counts $retr)" \
	no_loss
ktap_expect "utilisation" "$util" '>=' 90 %
ktap_expect "Jain's index over t=3..$DUR s" "$jain" '>=' 0.9
ktap_expect "mean queueing delay" "$qd" '<=' "$(fcalc "3 * $tgt_ms")" ms "3 x the target"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
