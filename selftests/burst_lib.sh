# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The burst measurement (tools/bench --scenarios burst, test_oscar_burst.sh):
# the OSCAR paper's convergence claim counted its way (footnote 1: steps to
# the target state -- near-full utilisation, a shallow queue -- not to
# fairness).  One long flow runs (or L); K short flows join at once and stop.
# One bpftrace per run records in one clock (boot ns): the bytes each flow
# (TCP source port of the data segments, > 1000 bytes) puts through the
# bottleneck device in BURST_BIN_MS (2 ms) bins, the device's backlog (its root
# qdisc's, bytes, the largest seen at a dequeue; from the qdisc_dequeue
# tracepoint: bpftrace 0.17 reads 0 through sk_buff's dev) in the same bins,
# and for oscar every per-batch decision
# (the oscar_batch tracepoint: the steps, with the batch delay and branch
# for reading a run).  The long flows are the L ports seen first; the
# burst spans the other ports' first to last bin.  The benchmark's guest keeps
# the trace raw; tools/bench-report computes these figures from it on the
# host (burst_figs, the same definitions; tools/bench-selftest compares
# the two on one trace).
#
#   burst_bt CC DEV IFINDEX    the bpftrace script (DEV: the bottleneck,
#                              IFINDEX its index: the backlog probe's cheap
#                              filter), on stdout; run it with
#                              BPFTRACE_MAP_KEYS_MAX=$BURST_MAP_KEYS: at the
#                              default 4096 keys of (bin, port) the map fills
#                              in the burst of 7 flows and later bins vanish
#                              (a 2 ms bin per flow: 4000 keys per 8 flow-s);
#                              65536 holds 16 flows for 8 s, or a 1 s burst
#                              of 31 flows beside 4 long ones for 6 s
#                              (27500 keys; bpftrace 0.17 printed nothing at
#                              all from a 262144-key map)
#   burst_metrics LOG K RATE_MBIT RTT_MS [L [PCT]]   the figures of one
#                              run; exit 1 (seven "nan") if the trace missed
#                              the long flows' first 10 RTT before the burst
#   burst_run CC K SECONDS [L] one run in the open net_lib run (NET_RUN):
#                              the trace, L long flows (default 1; from sender 0,
#                              SECONDS + 5 s), 1.5 s later K flows for
#                              SECONDS (from sender 1); the figures in
#                              BURST_FIGS (burst_metrics' line, or seven
#                              "nan"); 1 if the trace or a flow failed or
#                              the trace began late.  With BURST_RAW=1
#                              (the benchmark): the trace and flows only,
#                              no figures.
#                              Not in a subshell: net_lib's flow state is
#                              the caller's
#   burst_loss_case CC K L     no collapse after loss: one burst_run of K
#                              flows for 1 s (100 RTT) on L long ones in
#                              its own net_lib run, logged and kept as
#                              results (burst_CC_*); BL_OK (0 if the run,
#                              its trace or a flow's CC failed), BL_REC90,
#                              BL_REC (RTTs to >= 90 and 95 % of the wire
#                              rate), BL_UTIL, BL_JAIN (the long flows'
#                              after), BL_DROPS for the caller's checks

BURST_MAP_KEYS=65536
BURST_BIN_MS=2	# the byte counts' bin: 1/5 of the testbed's 10 ms RTT

burst_bt() { # CC DEV IFINDEX: the bpftrace script
	cat <<-EOF
	tracepoint:net:net_dev_xmit /args->len > 1000 && str(args->name) == "$2"/ {
	  \$skb = (struct sk_buff *)args->skbaddr;
	  \$ip = \$skb->head + \$skb->network_header;
	  \$p = *(uint16 *)(\$ip + (*(uint8 *)\$ip & 0xf) * 4);
	  @b[nsecs / $((BURST_BIN_MS * 1000000)), ((\$p & 0xff) << 8) | (\$p >> 8)] = sum(args->len); }
	tracepoint:qdisc:qdisc_dequeue /args->ifindex == $3 && args->skbaddr != 0/ {
	  \$q = (struct Qdisc *)args->qdisc;
	  if (\$q->dev_queue->dev->name == "$2") {
	    @q[nsecs / $((BURST_BIN_MS * 1000000))] = max(\$q->qstats.backlog); } }
	EOF
	[[ $1 == oscar ]] &&
		echo 'tracepoint:oscar:oscar_batch { printf("B %llu %u %u %u %u\n", nsecs / 1000, args->sport, args->u, args->delay_us, args->branch); }'
	# the TIMELY family's rate updates (diagnosis only: what a flow left
	# low by the burst did, update by update)
	[[ $1 == timely || $1 == timely_p || $1 == sqcc ]] &&
		echo "tracepoint:$1:rate_update { printf(\"T %llu %u %llu %u %u %u\\n\", nsecs / 1000, args->sport, args->rate_bytes_ps, args->d_us, args->branch, args->n); }"
	echo 'END { print(@b); clear(@b); print(@q); clear(@q); }'
}

# burst_metrics LOG K RATE_MBIT RTT_MS [L [PCT]]: the figures of one burst
# run from its bpftrace log (L long flows, default 1: the L ports seen first),
# one line "rec_rtt burst_util_pct land_steps sumu_steps q_burst_bdp
# q_after_bdp jain_after" ("nan" where the run has no burst; land_steps and
# sumu_steps "nan" without oscar)
#   rec_rtt     RTTs from the burst's end (the short flows' last bin)
#               until every 1-RTT window of the next 10 RTT carries >= PCT %
#               (default 95) of the bottleneck's wire rate (999: not in the
#               run).  The bytes are frames' (1514 for 1448 of payload),
#               so 90 % of the wire rate is 90 % of what cubic's goodput
#               reaches on the link (the payload ceiling)
#   burst_util_pct  the link's share carried from the burst's start + 10 RTT
#               to its end
#   land_steps  (oscar) the slowest flow's batches from the burst's start
#               until its u is within 20% of 1/(K+L) (999: never)
#   sumu_steps  (oscar) the first long flow's batches from the burst's
#               start until sum(u) stays in [0.85, 1.2] to the burst's end
#               (999: never)
#   q_burst_bdp the backlog the flows hold during the burst: the mean of the
#               bins' largest backlog from the burst's start + 10 RTT to its
#               end, in BDPs (bytes / (rate x RTT))
#   q_after_bdp the largest backlog from the first bin after the burst's
#               end with less than 0.1 BDP queued (the drain) to the run's
#               end, in BDPs: the recovery's overshoot ("nan": no drain)
#   jain_after  Jain's index of the L long flows' bytes from 100 RTT after
#               the burst's end to the trace's end ("nan": L = 1, or under
#               10 RTT of trace there)
burst_metrics() {
	awk -v k="$2" -v rate="$3" -v rtt="$4" -v nl="${5:-1}" -v pct="${6:-95}" \
		-v bin_ms="$BURST_BIN_MS" '
	/^@q\[/ { gsub(/[@q\[\],:]/, " "); qb[$1] = $2; next }
	/^@b\[/ { gsub(/[@b\[\],:]/, " "); bin = $1; port = $2; by[bin, port] += $3
		if (!(port in first) || bin < first[port]) first[port] = bin
		if (!(port in last) || bin > last[port]) last[port] = bin
		if (bin > b1) b1 = bin; next }
	$1 == "B" { n++; bt[n] = $2; bp[n] = $3; bu[n] = $4 / 1048576; next }
	END {
		# the long flows: the nl ports seen first (lp the first); the
		# burst: the others
		for (j = 1; j <= nl; j++) {
			q = ""; for (p in first) if (!(p in long) && (q == "" || first[p] < first[q])) q = p
			if (q == "") break
			long[q] = 1; if (j == 1) lp = q }
		s0 = ""; s1 = ""
		for (p in first) if (!(p in long)) {
			if (s0 == "" || first[p] < s0) s0 = first[p]
			if (last[p] > s1) s1 = last[p] }
		if (s0 == "") { print "nan nan nan nan nan nan nan"; exit }
		w = rtt / bin_ms
		# a trace that began late (the long flows seen first only
		# within 10 RTT of the burst) has no baseline: no figures
		if (first[lp] + 10 * w > s0) { print "nan nan nan nan nan nan nan"; exit 1 }
		full = rate * 1e6 / 8 * rtt / 1000 * pct / 100	# bytes per 1-RTT window
		rec = 999
		for (t = s1 + 1; t + 10 * w <= b1; t++) {
			ok = 1
			for (j = 0; j < 10 && ok; j++) {
				sum = 0
				for (i = t + j * w; i < t + (j + 1) * w; i++) for (p in first) sum += by[i, p]
				if (sum < full) ok = 0 }
			if (ok) { rec = (t - s1) / w; break } }
		# bytes and backlog (bins without a packet sent: empty) from the
		# burst start + 10 RTT to its end
		sum = 0; qs = 0; qn = 0
		for (i = s0 + 10 * w; i <= s1; i++) { for (p in first) sum += by[i, p]; qs += qb[i]; qn++ }
		util = (s1 - s0 - 10 * w > 0) ? sum / (rate * 1e6 / 8 * (s1 - s0 - 10 * w + 1) * bin_ms / 1000) * 100 : "nan"
		bdp = rate * 1e6 / 8 * rtt / 1000; qa = 0
		# the recovery overshoot: after the queue first drains (< 0.1 BDP)
		for (t0 = s1 + 1; t0 <= b1 && qb[t0] >= 0.1 * bdp; t0++);
		for (i = t0 + 1; i <= b1; i++) if (qb[i] > qa) qa = qb[i]
		# fairness of the long flows once recovered: from 100 RTT after
		# the burst to the end
		js = 0; js2 = 0
		for (p in long) { lb = 0
			for (i = s1 + 100 * w; i <= b1; i++) lb += by[i, p]
			js += lb; js2 += lb * lb }
		jf = "nan"
		if (nl > 1 && b1 - s1 - 100 * w >= 10 * w && js2 > 0) jf = sprintf("%.4f", js * js / (nl * js2))
		qf = sprintf("%s %s %s", qn ? sprintf("%.3f", qs / qn / bdp) : "nan",
			     t0 < b1 ? sprintf("%.3f", qa / bdp) : "nan", jf)
		if (n == 0) { printf "%.1f %.2f nan nan %s\n", rec, util, qf; exit }
		# steps: batches (us clock) from the burst start (bins)
		tgt = 1 / (k + nl); land = 0; nlb = 0; sumu = -1
		for (p in first) { u[p] = 1; cnt[p] = 0; done[p] = 0 }
		for (i = 1; i <= n; i++) {
			if (bt[i] < s0 * bin_ms * 1000) { u[bp[i]] = bu[i]; continue }
			if (bt[i] > s1 * bin_ms * 1000) break
			p = bp[i]; u[p] = bu[i]; cnt[p]++
			if (!done[p] && u[p] >= 0.8 * tgt && u[p] <= 1.2 * tgt) { done[p] = 1; if (cnt[p] > land) land = cnt[p] }
			if (p == lp) nlb++
			su = 0; for (q in u) su += u[q]
			if (su < 0.85 || su > 1.2) sumu = -1; else if (sumu < 0) sumu = nlb }
		for (p in first) if (!done[p]) land = 999
		printf "%.1f %.2f %d %d %s\n", rec, util, land, sumu < 0 ? 999 : sumu, qf }' "$1"
}

burst_run() { # CC K SECONDS [L]
	local c=$1 k=$2 secs=$3 nl=${4:-1} bt=$NET_RUN/burst.bt log=$NET_RUN/burst.txt pid ifx ok=1
	BURST_FIGS="nan nan nan nan nan nan nan"
	ifx=$(ip -n "$NET_NS_R" -o link show dev "$NET_BN_DEV" | cut -d: -f1)
	burst_bt "$c" "$NET_BN_DEV" "$ifx" >"$bt"
	if ! net_bpftrace "$bt" "$log" 300 BPFTRACE_MAP_KEYS_MAX=$BURST_MAP_KEYS; then
		echo "burst_run: bpftrace failed: $(tail -n 3 "$log")" >&2
		return 1
	fi
	pid=$NET_BT_PID
	# the long flows outlast the burst by 5.5 s: a burst flow whose SYN
	# the full buffer dropped starts 1 s (or 3 s) late and ends as late,
	# and the figures need >= 110 RTT after the last burst flow (one that
	# started 2 s late left 94 at + 5: the long flows' Jain read nan)
	NET_SS_MAX_DUTY=0.05 net_start_flows --cc "$c" --n "$nl" --from-sender 0 \
		--duration $((secs + 7)) || ok=0
	_net_sleep 1.5
	((ok)) && { NET_SS_MAX_DUTY=0.05 net_start_flows --cc "$c" --n "$k" --from-sender 1 \
		--duration "$secs" || ok=0; }
	net_wait_flows || ok=0
	net_bpftrace_stop 60 "$pid"	# END prints the maps: seconds under TCG
	# the benchmark's guest writes raw data only (its figures: the host's)
	[[ ${BURST_RAW:-0} == 1 ]] && return $((!ok))
	if ! BURST_FIGS=$(burst_metrics "$log" "$k" "$NET_RATE_MBIT" "$NET_RTT_MS" "$nl"); then
		echo "burst_run: the trace began within 10 RTT of the burst (no baseline)" >&2
		ok=0
	fi
	((ok))
}

burst_loss_case() { # CC K L
	local c=$1 k=$2 nl=$3
	BL_OK=1
	net_new_run "$NET_DIR/$c"
	burst_run "$c" "$k" 1 "$nl" || BL_OK=0
	net_summarize >/dev/null || BL_OK=0
	[[ $(net_get cc_ok) == 1 ]] || BL_OK=0
	read -r BL_REC BL_UTIL _ _ _ _ BL_JAIN <<<"$BURST_FIGS"
	read -r BL_REC90 _ < <(burst_metrics "$NET_RUN/burst.txt" "$k" "$NET_RATE_MBIT" \
		"$NET_RTT_MS" "$nl" 90 || echo nan)
	BL_DROPS=$(net_get drops)
	log_info "$c: link >= 90% (95%) of its wire rate again $BL_REC90 ($BL_REC) RTT after the burst, utilisation $BL_UTIL% in it, $BL_DROPS drops, long flows' Jain $BL_JAIN after"
	dcc_result "burst_${c}_rec_rtt" "$BL_REC"
	dcc_result "burst_${c}_rec90_rtt" "$BL_REC90"
	dcc_result "burst_${c}_util_pct" "$BL_UTIL"
	dcc_result "burst_${c}_jain_after" "$BL_JAIN"
	dcc_result "burst_${c}_drops" "$BL_DROPS"
}
