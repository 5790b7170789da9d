#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CCC plumbing: the module loads (pulling in dcc_lib), registers "ccc", is
# selectable by sysctl (default CC) and by setsockopt (iperf3 -C), refuses
# bad tunables with EINVAL keeping the old value, reports state through
# ss -ti (get_info), has its per-ACK tracepoint, and unloads when idle.
source "$(dirname "$0")/lib.sh"

MOD=tcp_ccc
P=/sys/module/$MOD/parameters
TR=/sys/kernel/tracing

ktap_print_header
require_root
require_cmd modprobe iperf3 jq ss
if ! modinfo "$MOD" >/dev/null 2>&1; then
	[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "$MOD.ko not installed"
fi
ktap_set_plan 12
dmesg_mark

# 1. load
if log_cmd modprobe "$MOD" && grep -qw ccc /proc/sys/net/ipv4/tcp_available_congestion_control; then
	ktap_test_pass "modprobe $MOD registers \"ccc\" (dcc_lib refcnt $(cat /sys/module/dcc_lib/refcnt))"
else
	ktap_test_fail "modprobe $MOD registers \"ccc\""
fi

# 2-4. tunables: a bad write is refused and the old value stays
ktap_params_refused "$MOD" "q_b_us 0" "q_b_us 1000001" "q_b_us 5ms" "line_rate_mbps 800001" \
	"line_rate_mbps -1" "base_rtt_us 1000001" "gamma_pct 100" "ut_pct 0" "ut_pct 101" \
	"qv_near_pct 51" "span_pct 0" "min_samples 1" "min_samples 256" "n_ai_max 21" \
	"cwnd_gain_pct 49" "cwnd_qb 2" "start_mode 2" "init_rate_mbps 0" "gamma_pct 99999999999" \
	"fair_ai_pml 1001" "share_base_rtt 2"
if echo 30 >"$P/gamma_pct" && [[ $(cat "$P/gamma_pct") == 30 ]] && echo 20 >"$P/gamma_pct"; then
	ktap_test_pass "a valid tunable write is taken (gamma_pct 30, then back to 20)"
else
	ktap_test_fail "a valid tunable write is taken"
fi
ktap_load_refused "$MOD" q_b_us=0

# loopback flows: R_l = 200 Mbit/s so pacing, not the CPU, sets the rate
echo 200 >"$P/line_rate_mbps"
iperf3 -s -D -p 5401 --logfile /tmp/ccc-basic-srv.log
sleep 0.3
run_client() { # OUTFILE ARGS...
	local out=$1; shift
	timeout 20 iperf3 -c 127.0.0.1 -p 5401 -t 3 -J "$@" >"$out" 2>/dev/null
}

# 5. per socket: setsockopt(TCP_CONGESTION) via iperf3 -C
run_client /tmp/ccc-c.json -C ccc
cc=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/ccc-c.json)
bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/ccc-c.json)
ktap_expect "setsockopt: iperf3 -C ccc: the sender's CC" "$cc" == ccc
ktap_expect "setsockopt: iperf3 -C ccc: goodput" "$(fround "$bps/1e6" 2)" '>' 1 Mbit/s

# 6. system default: sysctl net.ipv4.tcp_congestion_control=ccc
old_cc=$(sysctl -n net.ipv4.tcp_congestion_control)
sysctl -qw net.ipv4.tcp_congestion_control=ccc
run_client /tmp/ccc-s.json
cc=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/ccc-s.json)
sysctl -qw net.ipv4.tcp_congestion_control="$old_cc"
if [[ $cc == ccc ]]; then
	ktap_test_pass "sysctl: default CC ccc is used by a plain socket"
else
	ktap_test_fail "sysctl: default CC ccc is used by a plain socket (got '$cc')"
fi

# 7-8. ss -ti info while a flow runs; the tracepoint fires
ev=$TR/events/ccc/ccc_ack
trace_reset 4096
[[ -f $ev/enable ]] && echo 1 >"$ev/enable"
timeout 20 iperf3 -c 127.0.0.1 -p 5401 -t 3 -C ccc -J >/tmp/ccc-i.json 2>/dev/null &
cl=$!
sleep 1.5
ssout=$(ss -tin dport = :5401 2>/dev/null)
wait $cl
[[ -f $ev/enable ]] && echo 0 >"$ev/enable"
if grep -q "ccc" <<<"$ssout" && grep -q "pacing_gain" <<<"$ssout"; then
	ktap_test_pass "ss -ti shows ccc state: $(grep -o 'bbr:([^)]*)' <<<"$ssout" | head -1)"
else
	ktap_test_fail "ss -ti shows ccc state"
	log_info "$ssout"
fi
nev=$(grep -c 'ccc_ack:' $TR/trace)
ktap_test_result "tracepoint ccc:ccc_ack is in tracefs" [ -f "$ev/format" ]
ktap_expect "tracepoint ccc:ccc_ack: events in a 3 s flow (region, step: $(grep -m1 -o 'region=[0-9] f=[0-9] rho_q16=[0-9]* step=-*[0-9]*' $TR/trace))" "$nev" '>=' 10

# 9. unload while idle
pkill -x iperf3
sleep 0.5
echo 0 >"$P/line_rate_mbps"
if log_cmd modprobe -r "$MOD" && [[ ! -d /sys/module/$MOD ]]; then
	ktap_test_pass "modprobe -r $MOD while idle"
else
	ktap_test_fail "modprobe -r $MOD while idle (refcnt $(cat /sys/module/$MOD/refcnt 2>/dev/null))"
fi

# 10.
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
