#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Many flows at once, for every name dcc registers: MANY_FLOWS (1000)
# concurrent bulk flows from one sender namespace through the router's
# 20 Mbit/s htb bottleneck (net_lib.sh, 10 ms base RTT, a queue of
# MANY_LIMIT packets: two per flow) for MANY_SECS seconds after all are
# connected, every module at its testbed parameters for that path.  (The
# guest's one virtual CPU is nearly saturated by a thousand flows at
# 100 Mbit/s, which costs minutes of wall time per name; idle guest time
# costs none under icount, so a lower rate is what makes it affordable.)
# Each flow selects NAME with setsockopt before connect() and is checked
# with getsockopt (dcc_conn many: RLIMIT_NOFILE raised for 2000 sockets).
# Pass: every flow connects and runs NAME, the aggregate goodput after
# MANY_WARM seconds is at least MANY_MIN_MBIT (DCC_MANY_MIN_PCT, default
# 60% of the bottleneck: the window-based families measured 79-100% from run
# to run, nscc once 79.2%, so 80% was a coin toss; a starving or stalling
# CC is far below 60%), no kernel warning.  cubic runs first as the
# control: it shows the path can be filled.  The flows are reset at the
# end of each run (no orphan may send into the next) and the queue drains.
#
# The rate-driven laws (oscar, ccc, the timely family) start near the line
# rate with floors far above the fair share (their papers assume a lossless
# fabric); they fill the link here through dcc_lib's loss bound (dcc.h) and
# TIMELY's first-window cap.  Without them: oscar 10.5-11.2, ccc 5.6-6.0,
# timely/timely_p/sqcc 8.5-11.2 Mbit/s of 20; with them 13.7-21.1 (docs/testbed.md,
# "Known limits").
source "$(dirname "$0")/select_common.sh"
source "$(dirname "$0")/net_lib.sh"
source "$(dirname "$0")/testbed_params.sh"

MANY_FLOWS=${DCC_MANY_FLOWS:-1000}
MANY_SECS=${DCC_MANY_SECS:-6}
MANY_WARM=${DCC_MANY_WARM:-3}
MANY_LIMIT=2000
RATE=${DCC_MANY_RATE:-20} RTT=10
MANY_MIN_PCT=${DCC_MANY_MIN_PCT:-60}
MANY_MIN_MBIT=$((RATE * MANY_MIN_PCT / 100))

sel_require
require_cmd tc iperf3 jq
ktap_set_plan $((2 * (${#SEL_NAMES[@]} + 1) + 1))
dmesg_mark

for m in "${SEL_MODS[@]}"; do
	[[ $m == dcc_lib ]] && continue
	dcc_on_exit "dcc_testbed_restore $m"
	dcc_testbed_params "$m" $RATE $RTT || log_warn "$m refused its testbed parameters"
done
net_setup --rate-mbit $RATE --rtt-ms $RTT --limit-pkts $MANY_LIMIT ||
	ktap_skip_all "net_setup failed"
log_info "$MANY_FLOWS flows per name, ${MANY_SECS} s (goodput over the last $((MANY_SECS - MANY_WARM)) s), ${RATE} Mbit/s htb, ${RTT} ms, queue $MANY_LIMIT packets; pass: >= $MANY_MIN_MBIT Mbit/s"

for n in cubic "${SEL_NAMES[@]}"; do
	out=$("$SEL_CONN" many --client-ns "${NET_NS_S[0]}" --server-ns "$NET_NS_D" \
		--addr "$NET_DST_IP" --port 5500 -n "$MANY_FLOWS" -t $MANY_SECS \
		--warmup $MANY_WARM --cc "$n" 2>&1)
	rc=$?
	sleep 2	# the flows were reset; let the bottleneck queue drain
	mbit=$(grep -o 'mbit=[0-9.]*' <<<"$out")
	mbit=${mbit#mbit=}
	dcc_result "$n.mbit" "${mbit:-0}"
	ktap_expect "$n: $MANY_FLOWS flows connected and ran $n ($(grep -o 'connected [0-9]* in [0-9.]* s' <<<"$out")), dcc_conn's exit status" "$rc" == 0
	ktap_expect "$n: goodput of the $MANY_FLOWS flows" "$mbit" '>=' "$MANY_MIN_MBIT" Mbit/s
	((rc == 0)) || sed 's/^/#   /' <<<"$out" | head -n 8
done
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
