#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NSCC / MNSCC plumbing: tcp_nscc loads (pulling in dcc_lib) and
# registers "nscc" and "mnscc" (mnscc also autoloads it by alias); both
# are selectable by sysctl (default CC) and by setsockopt (iperf3 -C);
# their sockets negotiate ECN, and iperf3 -C puts the CC on the server's
# data socket too (the receiver that must echo CE per packet); without ECN
# (iperf3 -C sets the CC after connect) the socket still runs and ss
# shows fallback_mode; bad
# tunables are refused with EINVAL keeping the old value; ss -ti shows
# state; the tracepoint exists; the module unloads when idle.
source "$(dirname "$0")/lib.sh"

MOD=tcp_nscc
P=/sys/module/$MOD/parameters
TR=/sys/kernel/tracing

ktap_print_header
require_root
require_cmd modprobe iperf3 jq ss
if ! modinfo "$MOD" >/dev/null 2>&1; then
	[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "$MOD.ko not installed"
fi
ktap_set_plan 18
dmesg_mark

# 1. load through the alias: both names registered
avail() { grep -qw "$1" /proc/sys/net/ipv4/tcp_available_congestion_control; }
if log_cmd modprobe tcp_mnscc && avail nscc && avail mnscc; then
	ktap_test_pass "modprobe tcp_mnscc (alias) loads $MOD: nscc and mnscc registered (dcc_lib refcnt $(cat /sys/module/dcc_lib/refcnt))"
else
	ktap_test_fail "modprobe tcp_mnscc (alias) loads $MOD: nscc and mnscc registered"
fi

# 2-4. tunables
ktap_params_refused "$MOD" "nic_mbps -1" "nic_mbps 800001" "network_rtt_us 1000001" "target_pct 0" \
	"gamma_pct 0" "gamma_pct 101" "md_floor_pct 100" "delay_alpha_ppm 0" \
	"qa_gate 17" "qa_thresh_pct 99" "maxwnd_pct 99" "init_cwnd_pct 101" \
	"median_hmax 0" "median_hmax 5" "median_ewma 2" "pacing_gain_pct 99" "ecn_backstop_mode 3" \
	"fi_x100 abc" "target_us -1" "fulfill_bytes 0" "eta_x100 99999999999"
if echo 75 >"$P/target_pct" && [[ $(cat "$P/target_pct") == 75 ]] && echo 100 >"$P/target_pct"; then
	ktap_test_pass "a valid tunable write is taken (target_pct 75, then back to 100)"
else
	ktap_test_fail "a valid tunable write is taken"
fi
ktap_load_refused "$MOD" gamma_pct=0

# loopback flows at 50 Mbit/s (iperf3 -b): the application, not the guest's
# CPU, sets the rate (a 10 Gbit/s loopback flow costs minutes under icount)
echo 1000 >"$P/nic_mbps"
echo 1000 >"$P/network_rtt_us"
iperf3 -s -D -p 5301 --logfile /tmp/nscc-basic-srv.log
sleep 0.3
# flow_ss OUT CLIENT_ARGS...: a 3 s flow; ss of both ends after 1.5 s in $SS
flow_ss() {
	local out=$1 cl
	shift
	timeout 30 iperf3 -c 127.0.0.1 -p 5301 -t 3 -b 50M -J "$@" >"$out" 2>/dev/null &
	cl=$!
	sleep 1.5
	SS=$(ss -tinH state established '( dport = :5301 or sport = :5301 )' 2>/dev/null)
	wait $cl
}
# ends CC [ecn]: connection ends running CC (with ECN negotiated, i.e. our
# get_info's DCTCP layout "enabled" rather than fallback_mode, if asked)
ends() {
	local l n=0
	while read -r l; do
		[[ $l == *" $1 "* && $l == *dctcp:* ]] || continue
		[[ ${2:-} == ecn && $l != *"dctcp:(ce_state"* ]] && continue
		n=$((n + 1))
	done <<<"$(tr -s '\n\t' '\n ' <<<"$SS" | paste - -)"
	echo $n
}

# 5-6. per socket, setsockopt via iperf3 -C, both names; the server sets it
# on its accepted data socket too, i.e. the receiver runs the same CC.
# iperf3 sets the CC after connect(): the SYN left with the default CC, and
# tcp_ecn=2 (accept only) did not request ECN, so these flows run without
# ECN (checked in 8)
for cc in nscc mnscc; do
	flow_ss /tmp/nscc-$cc.json -C $cc
	[[ $cc == nscc ]] && SS_NOECN=$SS
	scc=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/nscc-$cc.json)
	bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/nscc-$cc.json)
	n=$(ends $cc)
	ktap_expect "setsockopt: iperf3 -C $cc: the sender's CC" "$scc" == "$cc"
	ktap_expect "setsockopt: iperf3 -C $cc: goodput" "$(fround "$bps/1e6" 2)" '>' 10 Mbit/s
	ktap_expect "setsockopt: iperf3 -C $cc: sender and server data sockets running $cc" "$n" '>=' 2
	((n >= 2)) || log_info "$SS"
done

# 7. system default (sysctl): the SYN is built by nscc/mnscc, whose
# TCP_CONG_NEEDS_ECN requests ECN although tcp_ecn=2 (accept only), and
# the server's listener, started under that default, accepts it: ECN is
# negotiated, both ends run the CC with ECN enabled
ok=1
old_cc=$(sysctl -n net.ipv4.tcp_congestion_control)
# a namespace's default CC holds a module reference: give it back, or
# the module cannot be unloaded (test 11)
dcc_on_exit "sysctl -qw net.ipv4.tcp_congestion_control=$old_cc"
for cc in nscc mnscc; do
	sysctl -qw net.ipv4.tcp_congestion_control=$cc
	# a fresh server: its listener takes the default CC (ECN accepted from
	# an ECT SYN only if the listener's CC needs ECN, as for dctcp), and
	# it forgets the previous client's -C
	pkill -x iperf3
	sleep 0.3
	iperf3 -s -D -p 5301 --logfile /tmp/nscc-basic-srv.log
	sleep 0.3
	flow_ss /tmp/nscc-s-$cc.json
	got=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/nscc-s-$cc.json)
	n=$(ends $cc ecn)
	if [[ $got != "$cc" ]] || ((n < 2)) || ! grep -q "dctcp:(ce_state" <<<"$SS"; then
		ok=0
		log_info "default $cc: a plain socket got '$got', $n ends with $cc and ecn"
		log_info "$SS"
	fi
done
ktap_test_result "sysctl: default CC nscc, then mnscc: used by plain sockets, ECN negotiated at both ends (tcp_ecn=2)" [ $ok = 1 ]
sysctl -qw net.ipv4.tcp_congestion_control="$old_cc"

# 8. the -C flows above: ECN not negotiated, yet they ran at the asked
# rate on delay alone, and ss shows dctcp:fallback_mode for them
SS=$SS_NOECN
ktap_test_result "without ECN (iperf3 -C, tcp_ecn=2): ss shows dctcp:fallback_mode (nscc on delay alone)" grep -q "fallback_mode" <<<"$SS"
ktap_expect "without ECN: nscc data sockets with ECN" "$(ends nscc ecn)" == 0
ktap_expect "without ECN: nscc data sockets (sender and server)" "$(ends nscc)" '>=' 2
grep -q "fallback_mode" <<<"$SS" || log_info "$SS"

# 9. tracepoint
ev=$TR/events/nscc/nscc_ack
if [[ -f $ev/format ]] && echo 1 >"$ev/enable" && echo 0 >"$ev/enable"; then
	ktap_test_pass "tracepoint nscc:nscc_ack is in tracefs and enables"
else
	ktap_test_fail "tracepoint nscc:nscc_ack is in tracefs and enables"
fi

# 10. a snapshot per socket: a parameter written mid-flow does not change
# a running socket (its target stays the one it started with)
echo 0 >"$P/target_us"
echo 100 >"$P/target_pct"
trace_reset 4096
echo 1 >"$ev/enable"
timeout 30 iperf3 -c 127.0.0.1 -p 5301 -t 3 -b 50M -C nscc -J >/dev/null 2>&1 &
cl=$!
sleep 1
echo 300 >"$P/target_pct"
wait $cl
echo 0 >"$ev/enable"
echo 100 >"$P/target_pct"
# target = 100% of the 1000 us network RTT, before and after the write
tg=$(grep -o 'target_us=[0-9]*' $TR/trace | sort | uniq -c)
if [[ -n $tg ]] && ! grep -q 'target_us=3000' <<<"$tg"; then
	ktap_test_pass "parameters are snapshotted per socket: target stayed $(tr -s ' \n' ' ' <<<"$tg")after target_pct=300"
else
	ktap_test_fail "parameters are snapshotted per socket (targets seen: $(tr -s ' \n' ' ' <<<"$tg"))"
fi

# 11. unload while idle
pkill -x iperf3
sleep 0.5
echo 0 >"$P/nic_mbps"
echo 0 >"$P/network_rtt_us"
# closing sockets keep a module reference until they are gone
for ((i = 0; i < 50; i++)); do
	[[ $(cat /sys/module/$MOD/refcnt) == 0 ]] && break
	sleep 0.2
done
if log_cmd modprobe -r "$MOD" && [[ ! -d /sys/module/$MOD ]]; then
	ktap_test_pass "modprobe -r $MOD while idle"
else
	ktap_test_fail "modprobe -r $MOD while idle (refcnt $(cat /sys/module/$MOD/refcnt 2>/dev/null))"
fi

# 12.
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
