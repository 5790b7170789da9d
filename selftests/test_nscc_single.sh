#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One flow through the ECN-marking bottleneck, for nscc and then
# mnscc: >= 90% utilisation; queueing delay near the target (mean bottleneck
# queue between 0.3 and 1.5 x target_Qdelay; a lone flow is capped by
# maxwnd = 1.5 BDP at a 0.5 BDP = 5 ms queue); CE fraction low in steady
# state (<= 5% of the packets: marks come only when flows share the link);
# ECN negotiated on the sender and the receiver's data socket running the
# same CC; decisions traced; tools/bpftrace/nscc.bt prints them.
# Scale and settings: nscc_common.sh.
source "$(dirname "$0")/nscc_common.sh"
nscc_require
ktap_set_plan 14

DUR=10
TR=/sys/kernel/tracing
net_setup --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn-k-bytes "$NS_K" --limit-pkts 300
net_quickack
tgt_ms=$(fcalc "$NS_TARGET_US / 1000")

for cc in nscc mnscc; do
	trace_reset 8192
	echo 1 >$TR/events/nscc/nscc_ack/enable
	have_bt=0
	if [[ $cc == nscc ]] && command -v bpftrace >/dev/null; then
		bt_out=/tmp/nscc-single-bt.txt
		timeout 120 bpftrace "$(dirname "$0")/../tools/bpftrace/nscc.bt" 5201 >"$bt_out" 2>&1 &
		bt_pid=$!
		have_bt=1
		for ((i = 0; i < 300; i++)); do	# wait for the header (BEGIN)
			grep -qs delay_us "$bt_out" && break
			sleep 0.2
		done
	fi
	net_new_run
	net_start_flows --cc $cc --n 1 --duration $DUR
	sleep 4
	rcv=$(ss -N "$NET_NS_D" -tinH state established sport = :5201 2>/dev/null)
	snd=$(ss -N "${NET_NS_S[0]}" -tinH state established dport = :5201 2>/dev/null)
	net_wait_flows || log_warn "flow reported an error"
	if [[ $have_bt == 1 ]]; then
		dcc_bt_stop 60 "$bt_pid"
		cp "$bt_out" "$NET_RUN/nscc_bt.txt"
	fi
	echo 0 >$TR/events/nscc/nscc_ack/enable
	grep nscc_ack $TR/trace >"$NET_RUN/nscc_trace.txt"
	st=$(awk -F'\t' '{ print $5 }' "$NET_RUN/flows.tsv")
	net_summarize --window "$(fcalc "$st + 3")" "$(fcalc "$st + $DUR")"
	nscc_report "single_$cc"
	t1=$(net_get window_t1) t2=$(net_get window_t2)
	util=$(net_get util_pct) qd=$(net_get mean_qdelay_ms)
	ce=$(nscc_ce_frac "$t1" "$t2")
	dcc_result "single_${cc}_ce_frac" "$ce"

	ktap_expect "$cc: every flow's sender ran $cc (cc_ok, from iperf3 sender_tcp_congestion)" "$(net_get cc_ok)" == 1
	# get_info's DCTCP layout: "dctcp:(ce_state..." = ECN negotiated,
	# "dctcp:fallback_mode" = not
	if grep -q "dctcp:(ce_state" <<<"$snd" && grep -q " $cc " <<<"$rcv" &&
		grep -q "dctcp:(ce_state" <<<"$rcv"; then
		ktap_test_pass "$cc: ECN negotiated; the receiver's data socket runs $cc (precise CE echo)"
	else
		ktap_test_fail "$cc: ECN negotiated; the receiver's data socket runs $cc"
		log_info "sender: $snd"
		log_info "receiver: $rcv"
	fi
	ktap_expect "$cc: utilisation of $NS_RATE Mbit/s" "$util" '>=' 90 %
	ktap_expect "$cc: mean queueing delay" "$qd" in "$(fcalc "0.3 * $tgt_ms")..$(fcalc "1.5 * $tgt_ms")" ms \
		"0.3..1.5 x the $tgt_ms ms target"
	ktap_expect "$cc: CE fraction in steady state" "$ce" '<=' 0.05
	nd=$(wc -l <"$NET_RUN/nscc_trace.txt")
	log_info "$cc decisions by quadrant (0 prop, 1 fair, 2 MD, 3 steer, 4 QA, 5 ign, 6 loss): $(grep -o 'quadrant=[0-9]' "$NET_RUN/nscc_trace.txt" | sort | uniq -c | tr '\n' ' ')"
	dcc_result "single_${cc}_decisions" "$nd"
	# a fulfill every 33280 B = 23 ACKs: ~330 per s at 100 Mbit/s
	ktap_expect "$cc: decisions traced in $DUR s" "$nd" '>=' 500
done
if [[ -s $NET_DIR/run1/nscc_bt.txt ]]; then
	nl=$(grep -c -E '^ *[0-9]+ +[0-9]+ +5201 ' "$NET_DIR/run1/nscc_bt.txt")
	ktap_expect "tools/bpftrace/nscc.bt decision lines" "$nl" '>=' 100
else
	ktap_test_skip "tools/bpftrace/nscc.bt (no bpftrace in this guest: tools/vmtest --bpftrace)"
fi
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
