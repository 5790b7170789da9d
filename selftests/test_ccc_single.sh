#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One CCC flow through the bottleneck: >= 90% of the bottleneck
# rate, no retransmissions in steady state; the per-ACK tracepoint fires
# and tools/bpftrace/ccc.bt prints the (q, q_v) trajectory.  The queue
# (the bottleneck's own backlog, not the RTT) depends on the window: the
# paper's r RTT_min (cwnd_qb 0, the default; times cwnd_gain_pct 110)
# binds at 1.1 R_l RTT_min, so a lone flow fills the link with a queue
# of ~0.1 RTT_min (mean queueing delay at most half of q_B; guest
# 1.2 ms, 95.3-95.6% of the link; at gain 100 0.01-0.06 ms and
# 93.4-94.0%); with cwnd_qb 1 it holds q_B (within 50%; 5.1 ms, 95.6%).
# Scale in ccc_common.sh (q_B = 5 ms on a 10 ms path).
source "$(dirname "$0")/ccc_common.sh"
ccc_require
ktap_set_plan 7

DUR=10
TR=/sys/kernel/tracing
net_setup --rate-mbit "$CCC_RATE" --rtt-ms "$CCC_RTT" --limit-pkts 300
net_quickack
trace_reset 16384
echo 1 >$TR/events/ccc/ccc_ack/enable
bt_out=/tmp/ccc-single-bt.txt
have_bt=0
if command -v bpftrace >/dev/null; then
	timeout 120 bpftrace "$(dirname "$0")/../tools/bpftrace/ccc.bt" 5201 >"$bt_out" 2>&1 &
	bt_pid=$!
	have_bt=1
	for ((i = 0; i < 300; i++)); do	# wait for BEGIN's header
		grep -qs q_us "$bt_out" && break
		sleep 0.2
	done
fi
net_run_flows --cc ccc --n 1 --duration $DUR || log_warn "flow reported an error"
if [[ $have_bt == 1 ]]; then
	dcc_bt_stop 60 "$bt_pid"
	cp "$bt_out" "$NET_RUN/ccc_bt.txt"
fi
echo 0 >$TR/events/ccc/ccc_ack/enable
grep ccc_ack $TR/trace >"$NET_RUN/ccc_trace.txt"
net_summarize --window 3 $DUR
ccc_report single
t1=$(net_get window_t1) t2=$(net_get window_t2)
util=$(net_get util_pct) qd=$(net_get mean_qdelay_ms)
retr=$(fm_retrans_between "$NET_RUN/flows.csv" "$t1" "$t2")
qb_ms=$(fcalc "$CCC_QB_US / 1000")
log_info "regions (share of ACKs): $(ccc_regions "$NET_RUN/ccc_trace.txt")"

nb=$(wc -l <"$NET_RUN/ccc_trace.txt")
dcc_result single_decisions "$nb"

ktap_expect "every flow's sender ran ccc (cc_ok, from iperf3 sender_tcp_congestion)" "$(net_get cc_ok)" == 1
ktap_expect "utilisation of $CCC_RATE Mbit/s" "$util" '>=' 90 %
if [[ $(cat /sys/module/tcp_ccc/parameters/cwnd_qb) == 0 ]]; then
	ktap_expect "mean queueing delay" "$qd" '<=' "$(fcalc "0.5 * $qb_ms")" ms \
		"q_B / 2: the paper's window binds below the target"
else
	ktap_expect "mean queueing delay" "$qd" in "$(fcalc "0.5 * $qb_ms")..$(fcalc "1.5 * $qb_ms")" ms \
		"cwnd_qb 1: q_B = $qb_ms ms +-50%"
fi
ktap_expect "retransmissions in steady state (t=$t1..$t2 s)" "$retr" == 0
# one decision per ACK: ~8000/s at 100 Mbit/s (the trace buffer may wrap)
ktap_expect "per-ACK decisions traced" "$nb" '>=' 5000
if [[ $have_bt == 1 ]]; then
	nl=$(grep -c -E '^ *[0-9]+ +[0-9]+ +5201 ' "$bt_out")
	ktap_expect "tools/bpftrace/ccc.bt trajectory lines" "$nl" '>=' 100
	[[ $nl -ge 100 ]] || log_cmd head -n 20 "$bt_out"
else
	ktap_test_skip "tools/bpftrace/ccc.bt (no bpftrace in this guest: tools/vmtest --bpftrace)"
fi
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
