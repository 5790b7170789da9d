#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One OSCAR flow through the bottleneck: >= 90% of the bottleneck rate,
# mean RTT between the base RTT and 2 x D_target, no retransmissions in
# steady state.  (A near-empty queue is expected: the window is capped at
# the BDP of RTT_base + eps.  The lone flow's utilisation, 95.6% of the
# wire rate in the bench's steady runs, is a benchmark figure; this bound
# is generous.)
source "$(dirname "$0")/oscar_common.sh"
oscar_require
ktap_set_plan 7

DUR=12
TR=/sys/kernel/tracing
net_setup --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT" --limit-pkts 300
net_quickack
trace_reset 8192
echo 1 >$TR/events/oscar/oscar_batch/enable
bt_out=/tmp/oscar-single-bt.txt
have_bt=0
if command -v bpftrace >/dev/null; then
	timeout 120 bpftrace "$(dirname "$0")/../tools/bpftrace/oscar.bt" 5201 >"$bt_out" 2>&1 &
	bt_pid=$!
	have_bt=1
	# bpftrace compiles its script first: wait for the header (BEGIN)
	for ((i = 0; i < 300; i++)); do
		grep -qs delay_us "$bt_out" && break
		sleep 0.2
	done
fi
net_run_flows --cc oscar --n 1 --duration $DUR || log_warn "flow reported an error"
if [[ $have_bt == 1 ]]; then
	dcc_bt_stop 60 "$bt_pid"
	cp "$bt_out" "$NET_RUN/oscar_bt.txt"
fi
echo 0 >$TR/events/oscar/oscar_batch/enable
grep oscar_batch $TR/trace >"$NET_RUN/oscar_trace.txt"
net_summarize --window 3 $DUR
oscar_report single
t1=$(net_get window_t1) t2=$(net_get window_t2)
util=$(net_get util_pct) rtt=$(net_get mean_rtt_ms)
retr=$(fm_retrans_between "$NET_RUN/flows.csv" "$t1" "$t2")
dt=$(fcalc "$OSC_RTT * $OSC_DT_PCT / 100")

# one decision per tau = 5 ms of send time: ~2400 in 12 s
nb=$(wc -l <"$NET_RUN/oscar_trace.txt")
log_info "decisions by branch (0 HAI, 1 accel, 2 decel, 3 refill): $(grep -o 'branch=[0-9]' "$NET_RUN/oscar_trace.txt" | sort | uniq -c | tr '\n' ' ')"
dcc_result single_batches "$nb"
nl=-
[[ $have_bt == 1 ]] && nl=$(grep -c -E '^ *[0-9]+ +[0-9]+ +5201 ' "$bt_out")

ktap_expect "every flow's sender ran oscar (cc_ok, from iperf3 sender_tcp_congestion)" "$(net_get cc_ok)" == 1
ktap_expect "utilisation of $OSC_RATE Mbit/s" "$util" '>=' 90 %
ktap_expect "mean RTT" "$rtt" in "$OSC_RTT..$(fcalc "2 * $dt")" ms "base RTT .. 2 x D_target"
ktap_expect "retransmissions in steady state (t=$t1..$t2 s)" "$retr" == 0
ktap_expect "per-batch decisions traced in $DUR s" "$nb" '>=' 500 "" "tau = $(fcalc "$OSC_RTT / 2") ms"
if [[ $have_bt == 1 ]]; then
	ktap_expect "tools/bpftrace/oscar.bt decision lines" "$nl" '>=' 100
	[[ $nl -ge 100 ]] || log_cmd head -n 20 "$bt_out"
else
	ktap_test_skip "tools/bpftrace/oscar.bt (no bpftrace in this guest: tools/vmtest --bpftrace)"
fi
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
