#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CA_EVENT_TX_START means "a send with nothing in flight".  The stack raises
# it after a real idle period, and also every round of a flow whose whole
# window one ACK clears (request/response traffic).  The modules forget
# their per-round state (TIMELY's completion window, OSCAR's batch, CCC's
# ACK clock, MSwift's median window) only after a real idle gap
# (dcc_tx_start_after_idle: no delivery for more than a base RTT).  TIMELY
# shows it best: a completion needs seg_bytes (64 KB) acknowledged, so with
# 4 KB requests it closes every 16 exchanges -- unless every request's
# TX_START resets the window, in which case none ever closes.
#
# Two namespaces on a veth with 2 ms of delay (base RTT 2 ms, far above the
# guest's request-to-request processing time).  400 back-to-back exchanges
# must produce completions (timely:rate_update events); 60 exchanges each
# after a 20 ms pause (10 base RTTs idle) must produce none: there the
# restart is real.  And a bulk flow paced at 1 Mbit/s (the rate floor a
# loss cut can leave): its TSO pairs leave every ~23 ms, each acknowledged
# 2 ms later, so every send is a TX_START more than a base RTT after the
# last delivery -- but the application never ran dry, so it is no idle
# restart (dcc_tx_start_after_idle tests tp->app_limited, as tcp_bbr does).
# Counted as one, every send reset the window and the flow never updated
# again (a burst's long flow stuck at the floor for seconds in the guest);
# 64 KB at 1 Mbit/s closes a completion every ~0.5 s.
source "$(dirname "$0")/lib.sh"

NS=dccidle$$
CONN=$DCC_SELFTESTS_DIR/build/dcc_conn
TR=/sys/kernel/tracing
EV=$TR/events/timely/rate_update

ktap_print_header
require_root
require_cmd modprobe ip tc
if ! modinfo tcp_timely >/dev/null 2>&1 || [[ ! -x $CONN ]]; then
	[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] ||
		ktap_skip_all "tcp_timely.ko or $CONN missing (make -C selftests helpers)"
fi
ktap_set_plan 4
dmesg_mark
modprobe tcp_timely || ktap_skip_all "modprobe tcp_timely failed"

P=/sys/module/tcp_timely/parameters
cleanup() {
	echo 0 >"$EV/enable" 2>/dev/null
	echo 0 >"$P/init_rate_kbps" 2>/dev/null
	ip netns del "${NS}a" 2>/dev/null
	ip netns del "${NS}b" 2>/dev/null
}
dcc_on_exit cleanup

dcc_ns_pair "${NS}a" "${NS}b" 10.9.3.1 10.9.3.2 &&
	ip netns exec "${NS}a" tc qdisc add dev va root netem delay 2ms ||
	ktap_skip_all "could not build the two-namespace path"

# rate_update events of the run (ARGS: dcc_conn MODE and its options)
completions() {
	local out
	trace_reset 4096
	echo 1 >"$EV/enable"
	out=$("$CONN" "$1" --client-ns "${NS}a" --server-ns "${NS}b" --addr 10.9.3.2 \
		--port 5330 --cc timely "${@:2}" 2>&1) || log_info "dcc_conn: $out" >&2
	echo 0 >"$EV/enable"
	log_info "$out" >&2
	grep -c 'rate_update:' $TR/trace
}

busy=$(completions rr --bytes 4096 -n 400)
ktap_expect "back-to-back exchanges: TIMELY completions, both ends" "${busy:-0}" '>=' 10 "" \
	"TX_START every round, no idle; 400 x 4 KB / 64 KB = 25 each"
idle=$(completions rr --bytes 4096 -n 60 --pause-us 20000)
ktap_expect "exchanges after 20 ms idle (10 base RTTs): completions" "${idle:-1}" == 0 "" \
	"each restart forgets the window"
echo 1000 >"$P/init_rate_kbps"
slow=$(completions many -n 1 -t 3)
echo 0 >"$P/init_rate_kbps"
ktap_expect "a bulk flow paced at 1 Mbit/s: completions in 3 s" "${slow:-0}" '>=' 3 "" \
	"TX_START on every send, never app-limited; 0: every send taken for an idle restart"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
