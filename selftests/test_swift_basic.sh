#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Swift/MSwift plumbing: tcp_swift loads (pulling in dcc_lib) and
# registers "swift", "lswift" and "mswift" (modprobe tcp_mswift works through
# the module alias); each is selectable by setsockopt (iperf3 -C) and by
# sysctl (default CC); bad tunable writes are refused with EINVAL keeping the
# old value; ss -ti shows the state (get_info); the tracepoint fires and
# tools/bpftrace/swift.bt prints it; the module unloads when idle.
source "$(dirname "$0")/lib.sh"

MOD=tcp_swift
P=/sys/module/$MOD/parameters
TR=/sys/kernel/tracing

ktap_print_header
require_root
require_cmd modprobe iperf3 jq ss
if ! modinfo "$MOD" >/dev/null 2>&1; then
	[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "$MOD.ko not installed"
fi
ktap_set_plan 15
dmesg_mark

# 1. load through the alias: one module, three names
avail=/proc/sys/net/ipv4/tcp_available_congestion_control
if log_cmd modprobe tcp_mswift && [[ -d /sys/module/$MOD ]] &&
	grep -qw swift $avail && grep -qw mswift $avail && grep -qw lswift $avail; then
	ktap_test_pass "modprobe tcp_mswift loads $MOD: $(tr ' ' '\n' <$avail | grep -c swift) swift names registered (dcc_lib refcnt $(cat /sys/module/dcc_lib/refcnt))"
else
	ktap_test_fail "modprobe tcp_mswift loads $MOD and registers swift, lswift, mswift"
fi

# 2-4. tunables: a bad write is refused and the old value stays
ktap_params_refused "$MOD" "base_target_us 0" "base_target_us 1000001" "target_mode 2" "hops 256" "hop_ttl 2" "hop_ttl -1" \
	"fs_range_us 1000001" "fs_min_cwnd_mpkt 0" "fs_max_cwnd 0" "ai_mpkt 0" \
	"ai_mpkt 65536" "beta_pm 1001" "max_mdf_pm 0" "max_mdf_pm 1001" \
	"min_cwnd_mpkt 0" "init_cwnd 0" "retx_reset 0" "lswift_k 256" "h_cap 0" \
	"h_cap 1025" "pctl 101" "pacing_pct 99" "beta_pm abc" "ai_mpkt -1" \
	"base_target_us 99999999999" "h_cap 12x"
if echo 600 >"$P/beta_pm" && [[ $(cat "$P/beta_pm") == 600 ]] && echo 800 >"$P/beta_pm" &&
	! echo 1 >"$P/medbuf_fallbacks" 2>/dev/null; then
	ktap_test_pass "a valid write is taken (beta_pm 600, back to 800); medbuf_fallbacks is read-only"
else
	ktap_test_fail "a valid write is taken; medbuf_fallbacks is read-only"
fi
ktap_load_refused "$MOD" h_cap=2000

iperf3 -s -D -p 5302 -I /tmp/swift-basic-srv.pid --logfile /tmp/swift-basic-srv.log
sleep 0.3
run_client() { # OUTFILE ARGS...
	local out=$1; shift
	timeout 20 iperf3 -c 127.0.0.1 -p 5302 -t 2 -J "$@" >"$out" 2>/dev/null
}

# 5-6. per socket: setsockopt(TCP_CONGESTION) via iperf3 -C, both names
for cc in swift mswift; do
	run_client /tmp/swift-c-$cc.json -C $cc
	got=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/swift-c-$cc.json)
	bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/swift-c-$cc.json)
	ktap_expect "setsockopt: iperf3 -C $cc: the sender's CC" "$got" == "$cc"
	ktap_expect "setsockopt: iperf3 -C $cc: goodput" "$(fround "$bps/1e6" 2)" '>' 1 Mbit/s
done

# 7-8. system default: sysctl net.ipv4.tcp_congestion_control, both names
old_cc=$(sysctl -n net.ipv4.tcp_congestion_control)
for cc in swift mswift; do
	sysctl -qw net.ipv4.tcp_congestion_control=$cc
	run_client /tmp/swift-s-$cc.json
	got=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/swift-s-$cc.json)
	sysctl -qw net.ipv4.tcp_congestion_control="$old_cc"
	if [[ $got == "$cc" ]]; then
		ktap_test_pass "sysctl: default CC $cc is used by a plain socket"
	else
		ktap_test_fail "sysctl: default CC $cc is used by a plain socket (got '$got')"
	fi
done

# 9-11. ss -ti while an mswift flow runs; tracepoint events; swift.bt
ev=$TR/events/swift/swift_decision
bt_out=/tmp/swift-basic-bt.txt have_bt=0
if command -v bpftrace >/dev/null; then
	timeout 120 bpftrace "$(dirname "$0")/../tools/bpftrace/swift.bt" 5302 >"$bt_out" 2>&1 &
	bt_pid=$!
	have_bt=1
	for ((i = 0; i < 300; i++)); do
		grep -qs delay_us "$bt_out" && break
		sleep 0.2
	done
fi
trace_reset 4096
echo 1 >"$ev/enable" 2>/dev/null
timeout 20 iperf3 -c 127.0.0.1 -p 5302 -t 3 -C mswift -J >/tmp/swift-i.json 2>/dev/null &
cl=$!
sleep 1.5
ssout=$(ss -tin dport = :5302 2>/dev/null)
wait $cl
echo 0 >"$ev/enable" 2>/dev/null
nev=$(grep -c 'swift_decision.*variant=2' $TR/trace)
if [[ $have_bt == 1 ]]; then
	dcc_bt_stop 60 "$bt_pid"
fi
if grep -q "mswift" <<<"$ssout" && grep -q "pacing_gain" <<<"$ssout"; then
	ktap_test_pass "ss -ti shows mswift state: $(grep -o 'bbr:([^)]*)' <<<"$ssout" | head -1)"
else
	ktap_test_fail "ss -ti shows mswift state"
	log_info "$ssout"
fi
ktap_expect "tracepoint swift:swift_decision: mswift decisions recorded" "${nev:-0}" '>' 100
if [[ $have_bt == 1 ]]; then
	nl=$(grep -c -E '^ *[0-9]+ +[0-9]+ +[0-9]+ +mswift ' "$bt_out")
	ktap_expect "tools/bpftrace/swift.bt mswift decision lines" "${nl:-0}" '>=' 100
	[[ ${nl:-0} -ge 100 ]] || log_cmd head -n 20 "$bt_out"
else
	ktap_test_skip "tools/bpftrace/swift.bt (no bpftrace in this guest: tools/vmtest --bpftrace)"
fi

# 12. unload while idle: the killed server's sockets hold the module until
# they have closed, which under a loaded host took longer than 0.5 s (refcnt 1
# at the first try, once): up to 5 s for them
kill "$(cat /tmp/swift-basic-srv.pid)" 2>/dev/null
for ((i = 0; i < 25; i++)); do
	sleep 0.2
	[[ $(cat "/sys/module/$MOD/refcnt" 2>/dev/null) == 0 ]] && break
done
if log_cmd modprobe -r "$MOD" && [[ ! -d /sys/module/$MOD ]]; then
	ktap_test_pass "modprobe -r $MOD while idle"
else
	ktap_test_fail "modprobe -r $MOD while idle (refcnt $(cat /sys/module/$MOD/refcnt 2>/dev/null))"
fi
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
