#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# OSCAR's two starts on a network that drops: 16 flows from
# four sender namespaces start together on a drop-tail buffer of one BDP
# (83 packets), once at line rate (start_u_ppm 1000000, the paper's start:
# each flow opens with a base-BDP window, ~16 BDP for a 2-BDP pipe) and
# once at 0.1 of mu (start_u_ppm 100000: the start phase doubles u per
# batch until a batch sees D_target).  The start phase must lose far fewer
# packets (measured, tools/bench incast n16, 2 runs each: 1117/1057 at
# line rate, 64/112 with the start phase) and still fill the link and
# share it.  Bounds are generous: drops at most a third of the line-rate
# start's, >= 90% utilisation and Jain >= 0.9 from t = 1 s in both.
source "$(dirname "$0")/oscar_common.sh"
oscar_require
ktap_set_plan 9

N=16 DUR=4
P=/sys/module/tcp_oscar/parameters
dcc_on_exit "echo 1000000 >$P/start_u_ppm"
net_setup --senders 4 --rate-mbit "$OSC_RATE" --rtt-ms "$OSC_RTT"
net_quickack
declare -A drops util jain
for start in 1000000 100000; do
	echo "$start" >"$P/start_u_ppm" || { log_warn "start_u_ppm $start refused"; exit "$KSFT_FAIL"; }
	net_new_run "$NET_DIR/start$start"
	net_run_flows --cc oscar --n $N --duration $DUR || log_warn "a flow reported an error"
	net_summarize --window 1 $DUR
	oscar_report "start${start}"
	drops[$start]=$(net_get drops) util[$start]=$(net_get util_pct) jain[$start]=$(net_get jain)
	[[ $(net_get cc_ok) == 1 ]] || cc_bad=1
done
echo 1000000 >"$P/start_u_ppm"

ktap_test_result "all flows of both runs used oscar" [ "${cc_bad:-0}" = 0 ]
ktap_expect "line-rate start: drops" "${drops[1000000]}" '>' 0 '' "the case the start phase is for"
ktap_expect "start phase: ${drops[100000]} drops, of the line-rate start's ${drops[1000000]}" \
	"$(awk -v a="${drops[100000]}" -v b="${drops[1000000]}" 'BEGIN { print (b + 0 > 0 && a != "" ? sprintf("%.3f", a / b) : "nan") }')" \
	'<=' 0.333
for start in 1000000 100000; do
	k=$( ((start == 1000000)) && echo "line-rate start" || echo "start phase")
	ktap_expect "$k: utilisation from t=1 s" "${util[$start]}" '>=' 90 %
	ktap_expect "$k: Jain from t=1 s" "${jain[$start]}" '>=' 0.9
done
ktap_test_result "start_u_ppm is back at the default (1000000)" [ "$(cat "$P/start_u_ppm")" = 1000000 ]
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
