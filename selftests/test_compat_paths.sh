#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel interfaces include/dcc/compat.h adapts, driven on the running
# kernel (make check runs this test on every kernel series it tests):
#  - __tcp_send_ack(): dcc_lib's precise ECN echo (modules/dcc_lib/
#    ecn_echo.c) sends the ACK still owed for the old CE run through
#    dcc_tcp_send_ack(), whose call differs across kernels.  That branch
#    runs only when the CE state flips while a delayed ACK is pending, so
#    two nscc flows share an ECN bottleneck marking near their queue with
#    delayed ACKs on (no quickack), and a kprobe on __tcp_send_ack counts
#    its callers (hist trigger keyed by the return address, $stack0 at the
#    entry): calls from dcc_ecn_echo must appear.
#  - cong_control(): its prototype differs across kernels; the build
#    checks it (-Werror: a wrong prototype is an incompatible pointer),
#    and the *_single tests drive it (each module sets its pacing rate
#    there: no utilisation without it).
source "$(dirname "$0")/nscc_common.sh"
nscc_require
ktap_set_plan 3

TR=/sys/kernel/tracing
EV=dcc_compat/send_ack
DUR=4
# marking threshold: the nscc tests' K (nscc_common.sh), near where two
# flows hold the queue, so CE runs start and end all the time.  Measured on
# 6.12, 4 s: 58 echo ACKs at 75 KB, 22 at 40 KB, 1-4 at 15 KB (the queue
# then never drops below K: every packet CE, no flip).
K_BYTES=${DCC_COMPAT_K_BYTES:-$NS_K}

# Kprobe event: the return address at __tcp_send_ack's entry ($stack0)
# says who called it.
kprobe_setup() {
	[[ -w $TR/kprobe_events ]] || return 1
	echo "p:$EV __tcp_send_ack caller=\$stack0:x64" >>"$TR/kprobe_events" || return 1
	dcc_on_exit kprobe_cleanup
	echo 'hist:keys=caller.sym-offset' >"$TR/events/$EV/trigger" || return 1
	# (the trigger alone left the kprobe unregistered: no hit at all)
	echo 1 >"$TR/events/$EV/enable" || return 1
}
kprobe_cleanup() {
	echo 0 >"$TR/events/$EV/enable" 2>/dev/null
	echo '!hist:keys=caller.sym-offset' >"$TR/events/$EV/trigger" 2>/dev/null
	echo "-:$EV" >>"$TR/kprobe_events" 2>/dev/null
	return 0
}

have_kprobe=1
kprobe_setup || { have_kprobe=0; log_warn "no kprobe event / hist trigger on __tcp_send_ack"; }

net_setup --senders 2 --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn-k-bytes "$K_BYTES" \
	--limit-pkts 1000
net_start_flows --cc nscc --n 2 --duration $DUR && net_wait_flows ||
	log_warn "a flow reported an error"
net_summarize --window 1 $DUR
marks=$(net_get marks)
ktap_test_result "2 nscc flows ran nscc on both ends through the ECN bottleneck ($marks CE marks, K = $K_BYTES bytes)" \
	[ "$(net_get cc_ok)" = 1 ]

if ((have_kprobe)); then
	cp "$TR/events/$EV/hist" "$NET_RUN/send_ack_callers.txt"
	# lines "{ caller: [addr] sym+off/size } hitcount: N"
	echo_calls=$(awk '/dcc_ecn_echo/ { for (i = 1; i <= NF; i++) if ($i == "hitcount:") s += $(i + 1) }
		END { print s + 0 }' "$NET_RUN/send_ack_callers.txt")
	all_calls=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "hitcount:") s += $(i + 1) }
		END { print s + 0 }' "$NET_RUN/send_ack_callers.txt")
	log_info "__tcp_send_ack callers ($(uname -r)):"
	grep -a 'hitcount:' "$NET_RUN/send_ack_callers.txt" | sed 's/^/#   /'
	dcc_result echo_send_ack_calls "$echo_calls"
	ktap_expect "kernel $(uname -r): ACKs dcc_ecn_echo sent through __tcp_send_ack" \
		"$echo_calls" '>' 0 "" "of $all_calls calls"
else
	ktap_test_skip "dcc_ecn_echo's __tcp_send_ack calls (no kprobe events or hist triggers)"
fi
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
