#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# OSCAR plumbing: the module loads (pulling in dcc_lib), registers "oscar",
# is selectable by sysctl (default CC) and by setsockopt (iperf3 -C), refuses
# bad tunables with EINVAL keeping the old value, reports state through
# ss -ti (get_info), has its per-batch tracepoint, and unloads when idle.
source "$(dirname "$0")/lib.sh"

MOD=tcp_oscar
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
if log_cmd modprobe "$MOD" && grep -qw oscar /proc/sys/net/ipv4/tcp_available_congestion_control; then
	ktap_test_pass "modprobe $MOD registers \"oscar\" (dcc_lib refcnt $(cat /sys/module/dcc_lib/refcnt))"
else
	ktap_test_fail "modprobe $MOD registers \"oscar\""
fi

# 2-4. tunables: a bad write is refused and the old value stays
ktap_params_refused "$MOD" "tau_pct 5" "tau_pct 201" "dtarget_pct 100" "line_rate_mbps 800001" \
	"u_min_ppm 0" "u_ai_ppm -1" "eps_us abc" "hyst_us 65536" "base_rtt_us 1000001" \
	"u_hai_ppm 99999999999" "min_samples 2" "min_samples 256" "eps_us 65536" \
	"share_base_rtt 2" "u_hmi_pct 1001" "u_hmi_pct -1" "start_u_ppm 0" "start_u_ppm 1000001" \
	"refill 3" "refill -1" "shared_target 2" "shared_target -1"
if echo 60 >"$P/tau_pct" && [[ $(cat "$P/tau_pct") == 60 ]] && echo 50 >"$P/tau_pct"; then
	ktap_test_pass "a valid tunable write is taken (tau_pct 60, then back to 50)"
else
	ktap_test_fail "a valid tunable write is taken"
fi
ktap_load_refused "$MOD" tau_pct=7

# loopback flows: 50 Mbit/s so pacing, not the CPU, sets the rate
echo 1000 >"$P/line_rate_mbps"
iperf3 -s -D -p 5301 --logfile /tmp/oscar-basic-srv.log
sleep 0.3
run_client() { # OUTFILE ARGS...
	local out=$1; shift
	timeout 20 iperf3 -c 127.0.0.1 -p 5301 -t 3 -J "$@" >"$out" 2>/dev/null
}

# 5. per socket: setsockopt(TCP_CONGESTION) via iperf3 -C
run_client /tmp/oscar-c.json -C oscar
cc=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/oscar-c.json)
bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/oscar-c.json)
ktap_expect "setsockopt: iperf3 -C oscar: the sender's CC" "$cc" == oscar
ktap_expect "setsockopt: iperf3 -C oscar: goodput" "$(fround "$bps/1e6" 2)" '>' 1 Mbit/s

# 6. system default: sysctl net.ipv4.tcp_congestion_control=oscar
old_cc=$(sysctl -n net.ipv4.tcp_congestion_control)
sysctl -qw net.ipv4.tcp_congestion_control=oscar
run_client /tmp/oscar-s.json
cc=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/oscar-s.json)
sysctl -qw net.ipv4.tcp_congestion_control="$old_cc"
if [[ $cc == oscar ]]; then
	ktap_test_pass "sysctl: default CC oscar is used by a plain socket"
else
	ktap_test_fail "sysctl: default CC oscar is used by a plain socket (got '$cc')"
fi

# 7-8. ss -ti info while a flow runs; the tracepoint exists and enables
# (test_oscar_single counts its events and runs tools/bpftrace/oscar.bt on
# a real path: on loopback most batches are stale)
timeout 20 iperf3 -c 127.0.0.1 -p 5301 -t 3 -C oscar -J >/tmp/oscar-i.json 2>/dev/null &
cl=$!
sleep 1.5
ssout=$(ss -tin dport = :5301 2>/dev/null)
wait $cl
if grep -q "oscar" <<<"$ssout" && grep -q "pacing_gain" <<<"$ssout"; then
	ktap_test_pass "ss -ti shows oscar state: $(grep -o 'bbr:([^)]*)' <<<"$ssout" | head -1)"
else
	ktap_test_fail "ss -ti shows oscar state"
	log_info "$ssout"
fi
ev=$TR/events/oscar/oscar_batch
if [[ -f $ev/format ]] && echo 1 >"$ev/enable" && echo 0 >"$ev/enable"; then
	ktap_test_pass "tracepoint oscar:oscar_batch is in tracefs and enables"
else
	ktap_test_fail "tracepoint oscar:oscar_batch is in tracefs and enables"
fi

# 9. the flow honoured the rate cap: u <= 1 means pacing <= mu
echo 50 >"$P/line_rate_mbps"
run_client /tmp/oscar-r.json -C oscar
bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/oscar-r.json)
echo 0 >"$P/line_rate_mbps"
ktap_expect "line_rate_mbps=50 caps a loopback flow" "$(fcalc "$bps / 1e6")" in 35..52 Mbit/s

# 10. unload while idle
pkill -x iperf3
sleep 0.5
if log_cmd modprobe -r "$MOD" && [[ ! -d /sys/module/$MOD ]]; then
	ktap_test_pass "modprobe -r $MOD while idle"
else
	ktap_test_fail "modprobe -r $MOD while idle (refcnt $(cat /sys/module/$MOD/refcnt 2>/dev/null))"
fi

# 11.
if check_dmesg_clean; then
	ktap_test_pass "no kernel warnings"
else
	ktap_test_fail "no kernel warnings"
fi
ktap_finished
