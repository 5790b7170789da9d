#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Swift's retransmission-timeout rules (Swift, SIGCOMM'20, Alg. 1): every
# RTO cuts the window by max_mdf (at most once per RTT), and retx_reset
# consecutive RTOs set it to min_cwnd.  The stack raises CA_EVENT_LOSS only
# once per loss episode, so a module counting that event sees one RTO however
# many expire; tcp_swift counts set_state(TCP_CA_Loss), which runs on every
# expiry.  This test blackholes a running swift flow's ACKs long enough for
# several consecutive RTOs (route rto_min 5 ms, so backoff reaches 5
# expiries in ~0.2 s) and requires, from the swift:swift_decision tracepoint,
# at least retx_reset RTO decisions and a reset to the minimum window; after
# the path returns, the flow carries data again and its sockets close.  Two
# namespaces on a veth pair, no bottleneck needed.  base_target_us is raised
# to 2 ms for this flow: at the 25 us default the guest's veth RTT noise
# (hundreds of us) is above target on every ACK, so after the reset to
# min_cwnd (0.001 packet: one packet per 1000 srtt) the window never regrows
# and the closed socket drains its last data for minutes, holding the module.
source "$(dirname "$0")/lib.sh"

MOD=tcp_swift
TR=/sys/kernel/tracing
EV=$TR/events/swift/swift_decision
NS=dccrto$$

ktap_print_header
require_root
require_cmd modprobe iperf3 jq ip tc
if ! modinfo "$MOD" >/dev/null 2>&1; then
	[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "$MOD.ko not installed"
fi
ktap_set_plan 5
dmesg_mark
modprobe "$MOD" || ktap_skip_all "modprobe $MOD failed"
reset=$(cat /sys/module/$MOD/parameters/retx_reset)
old_target=$(cat /sys/module/$MOD/parameters/base_target_us)
refcnt0=$(cat /sys/module/$MOD/refcnt)
echo 2000 >/sys/module/$MOD/parameters/base_target_us

cleanup() {
	echo "$old_target" >/sys/module/$MOD/parameters/base_target_us
	echo 0 >"$EV/enable" 2>/dev/null
	ip netns del "${NS}a" 2>/dev/null
	ip netns del "${NS}b" 2>/dev/null
}
dcc_on_exit cleanup

dcc_ns_pair "${NS}a" "${NS}b" 10.9.0.1 10.9.0.2 &&
	ip -n "${NS}a" route replace 10.9.0.0/24 dev va rto_min 5ms ||
	ktap_skip_all "could not build the two-namespace path"

ip netns exec "${NS}b" iperf3 -s -D -p 5310 -I /tmp/swift-rto-srv.pid
sleep 0.3
trace_reset 4096
echo 1 >"$EV/enable"
ip netns exec "${NS}a" timeout 30 iperf3 -c 10.9.0.2 -p 5310 -t 5 -C swift -J \
	>/tmp/swift-rto.json 2>/dev/null &
cl=$!
sleep 1.5
# the receiver's ACKs vanish: the sender's retransmission timer expires,
# backing off 5, 10, 20, 40, ... ms
ip netns exec "${NS}b" tc qdisc add dev vb root netem loss 100%
sleep 1
ip netns exec "${NS}b" tc qdisc del dev vb root
wait $cl
echo 0 >"$EV/enable"
kill "$(cat /tmp/swift-rto-srv.pid)" 2>/dev/null

nrto=$(grep -c 'swift_decision.*action=5 ' $TR/trace)
nreset=$(grep -c 'swift_decision.*action=6 ' $TR/trace)
log_info "RTO decisions: $nrto cut, $nreset reset to min_cwnd (retx_reset $reset)"
ktap_expect "every RTO is seen: RTO decisions during 1 s of lost ACKs" "$((nrto + nreset))" \
	'>=' "${reset:-nan}" "" "retx_reset; $nrto cuts, $nreset resets"
ktap_expect "retx_reset consecutive RTOs set the minimum window: reset decisions" "$nreset" '>=' 1
bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/swift-rto.json)
got=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/swift-rto.json)
ktap_expect "the flow (cc $got) recovers after the blackhole: goodput over 5 s" \
	"$(fcalc "$bps / 1e6")" '>' 1 Mbit/s
# every swift socket of the test closes (none lingers holding the module)
for ((i = 0; i < 100; i++)); do
	[[ $(cat /sys/module/$MOD/refcnt) -le $refcnt0 ]] && break
	sleep 0.2
done
ktap_expect "the test's swift sockets close: $MOD refcnt" "$(cat /sys/module/$MOD/refcnt)" \
	'<=' "$refcnt0" "" "its count before the flow"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
