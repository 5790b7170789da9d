#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# NSCC's four quadrants and quick adapt, each asserted by its action in the
# kernel (tracepoint nscc:nscc_ack: quadrant, flags, the law's window before
# and after the ACK, avg_delay and target), in the scenario that makes it:
#  A. one flow from Linux's initial window (init_cwnd_pct 0), the bottleneck
#     marking above K = 75 KB (6 ms, above the 5 ms target): the queue stays
#     below the target while the window grows, so the ACKs are proportional
#     increase (PROP): no PROP event shrinks the window, and it grows from
#     10 packets past one BDP;
#  B. four flows at maxwnd, same K, a 1000-packet buffer (the start's 6
#     BDP fit): delay between the target and K (FAIR: never shrinks the
#     window) and above K (CE with high delay: MD).  Each MD event that
#     applied no credit and reported no loss too (a loss takes its bytes off
#     the window first) keeps max(1 - gamma (avg - target) / avg, md_floor)
#     of the window, from the avg_delay and target it reports (within 2%
#     and a packet); and no event is a mark without a CE echo (the default,
#     ecn_backstop_mode 0, is UE's: the marks are the network's; in mode 1
#     the backstop's delay marks end at a flow's first CE: none after it);
#  C. two flows, K = 25 KB (2 ms) below the target: CE with a delay under the
#     target, the steer-only quadrant (STEER): its events without credit
#     leave the window as it was;
#  D. 16 flows at maxwnd into a 2000-packet buffer (24 BDP in the first RTT):
#     delay past 4 x target while each delivers under maxwnd / 8 per
#     base RTT + target, so quick adapt fires: each QA event sets the window
#     below what it was and to what was delivered (< maxwnd / 8 = 23.4 KB
#     at a 10 ms base RTT; 25.8 KB allowed for an 11 ms one); and every
#     flow's base RTT is the path's (within 1 ms of it), also for the
#     flows that start into the queue the first ones built (share_base_rtt:
#     on their own they take 11-27 ms).
# Scale and settings: nscc_common.sh (target 5 ms, nic 100 Mbit/s, network RTT
# 10 ms; receivers ACK every segment).
source "$(dirname "$0")/nscc_common.sh"
nscc_require
ktap_set_plan 19

TR=/sys/kernel/tracing
NQ_OUT=''
# an awk action for the increase-only quadrants, on their events without
# a loss (a loss takes its bytes off first): n events, s that shrank the
# window; a shrink of at most 3% is a clamp to a maxwnd that a lower base
# RTT lowered (the config is resolved again), not the quadrant's action,
# and up to 2 of those are let pass
NQ_SHRINK='&& !bit(f, 64) { n++; if (cw < prev * 0.97) s += 3; else if (cw < prev) s++ }'

# nq_run NAME N DUR [PARAM=VALUE...]: N nscc flows for DUR s with the
# tracepoint on; the events go to $NET_RUN/nscc_trace.txt (NQ_OUT).  The
# parameters are set for the run's sockets (each takes the snapshot at its
# init) and put back after.
nq_run() {
	local name=$1 n=$2 dur=$3 kv k v
	shift 3
	local -A old
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		old[$k]=$(<"$NS_P/$k")
		echo "$v" >"$NS_P/$k" || log_warn "$k=$v refused"
	done
	echo 0 >$TR/tracing_on
	trace_reset 16384
	echo 1 >$TR/events/nscc/nscc_ack/enable
	echo 1 >$TR/tracing_on
	net_new_run
	net_start_flows --cc nscc --n "$n" --duration "$dur" &&
		net_wait_flows || log_warn "$name: a flow reported an error"
	echo 0 >$TR/events/nscc/nscc_ack/enable
	for k in "${!old[@]}"; do echo "${old[$k]}" >"$NS_P/$k"; done
	NQ_OUT=$NET_RUN/nscc_trace.txt
	grep nscc_ack $TR/trace >"$NQ_OUT"
	log_info "$name: $(wc -l <"$NQ_OUT") events; by quadrant (0 prop, 1 fair, 2 MD, 3 steer, 4 QA, 5 ign, 6 loss): $(grep -o 'quadrant=[0-9]' "$NQ_OUT" | sort | uniq -c | tr '\n' ' ')"
}

# nq_awk PROGRAM: run PROGRAM over the events with the fields by name
# (q quadrant, f flags with bit(f, B), sp sport, avg, tgt, bs base RTT (us),
# prev, cw);
# POSIX awk: mawk has no and()
nq_awk() {
	awk "
	function hex(s,   i, v) {
		v = 0
		for (i = 3; i <= length(s); i++)
			v = v * 16 + index(\"0123456789abcdef\", substr(s, i, 1)) - 1
		return v
	}
	function bit(v, b) { return int(v / b) % 2 }
	{
		for (i = 1; i <= NF; i++) {
			split(\$i, kv, \"=\")
			if (kv[1] == \"quadrant\") q = kv[2] + 0
			else if (kv[1] == \"flags\") f = hex(kv[2])
			else if (kv[1] == \"sport\") sp = kv[2]
			else if (kv[1] == \"avg_us\") avg = kv[2] + 0
			else if (kv[1] == \"target_us\") tgt = kv[2] + 0
			else if (kv[1] == \"base_us\") bs = kv[2] + 0
			else if (kv[1] == \"prev_cwnd\") prev = kv[2] + 0
			else if (kv[1] == \"cwnd\") cw = kv[2] + 0
		}
	}
	$1" "$NQ_OUT"
}

# A. proportional increase from the initial window
net_setup --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn-k-bytes "$NS_K" --limit-pkts 300
net_quickack
nq_run A 1 3 init_cwnd_pct=0
read -r np shrink lo hi < <(nq_awk "q == 0 $NQ_SHRINK"'
	NR == 1 || prev < lo { lo = prev } cw > hi { hi = cw }
	END { print n + 0, s + 0, lo + 0, hi + 0 }')
ktap_expect "A (one flow from IW10): PROP events" "$np" '>=' 20
ktap_expect "A: PROP events that shrank the window" "$shrink" '<=' 2 '' "a clamp to a new maxwnd, by <= 3%"
ktap_expect "A: smallest window" "$lo" '<=' 28960 bytes "2 x IW10"
ktap_expect "A: largest window" "$hi" '>=' 125000 bytes "one BDP"

# B. fair increase and MD: four flows sharing, CE above the target
net_setup --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn-k-bytes "$NS_K" --limit-pkts 1000
net_quickack
nq_run B 4 5
gamma=$(<"$NS_P/gamma_pct") floor=$(<"$NS_P/md_floor_pct") mode=$(<"$NS_P/ecn_backstop_mode")
read -r nf fshrink < <(nq_awk "q == 1 $NQ_SHRINK"' END { print n + 0, s + 0 }')
ktap_expect "B (four flows, CE above 6 ms, target 5 ms): FAIR events" "$nf" '>=' 20
ktap_expect "B: FAIR events that shrank the window" "$fshrink" '<=' 2 '' "a clamp to a new maxwnd, by <= 3%"
read -r nmd bad worst < <(nq_awk "
	bit(f, 4) && !bit(f, 16) && !bit(f, 64) {
		n++
		keep = avg > tgt ? 1 - $gamma / 100 * (avg - tgt) / avg : 1
		if (keep < $floor / 100) keep = $floor / 100
		want = prev * keep
		d = cw - want; if (d < 0) d = -d
		if (d > 0.02 * want + 1448 && cw > 2 * 1448) { b++; if (d / want > w) w = d / want }
	}
	END { printf \"%d %d %.3f\n\", n, b, w }")
ktap_expect "B: MD events without credit or loss" "$nmd" '>=' 10
ktap_expect "B: MD events off max(1 - gamma (avg - target) / avg, floor) of the window by more than 2% and a packet (worst $worst)" "$bad" == 0
read -r nce after < <(nq_awk "
	bit(f, 2) { ce[sp] = 1; n++ }
	bit(f, 1) && !bit(f, 2) && ($mode == 0 || (sp in ce)) { a++ }
	END { print n + 0, a + 0 }")
ktap_expect "B: ecn_backstop_mode (0: UE's default, 1: delay marks until the first CE)" "$mode" in 0..1
ktap_expect "B: events with CE" "$nce" '>' 0
ktap_expect "B: delay-only marks$( ((mode == 1)) && echo " after a flow's first CE")" "$after" == 0 '' "the marks are the network's"

# C. steer only: CE below the target
net_setup --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn-k-bytes 25000 --limit-pkts 300
net_quickack
nq_run C 2 4
read -r ns moved < <(nq_awk 'q == 3 && !bit(f, 16) && !bit(f, 64) { n++; if (cw > prev || cw < prev * 0.97) m++; else if (cw < prev) c++ }
	END { print n + 0, m + c * (c > 2) }')
ktap_expect "C (two flows, CE above 2 ms, target 5 ms): STEER events without credit" "$ns" '>=' 20
ktap_expect "C: STEER events that changed the window" "$moved" == 0 '' "a clamp to a new maxwnd excepted: <= 2, by <= 3%"

# D. quick adapt: a 16-flow incast at maxwnd
net_setup --rate-mbit "$NS_RATE" --rtt-ms "$NS_RTT" --ecn-k-bytes "$NS_K" --limit-pkts 2000
net_quickack
nq_run D 16 3
read -r nqa qbad qcut qmax < <(nq_awk 'bit(f, 8) { n++; if (cw > 25800) b++; if (cw < prev) c++; if (cw > m) m = cw }
	END { print n + 0, b + 0, c + 0, m + 0 }')
ktap_expect "D (16 flows at maxwnd, 2000-packet buffer): quick adapts" "$nqa" '>=' 8
ktap_expect "D: quick adapts that cut the window" "$qcut" '>=' 8
ktap_expect "D: quick adapts that left it above maxwnd / 8 (largest after a QA: $qmax bytes)" "$qbad" == 0
# the senders' sockets (the iperf3 servers' listen on 5201.., the
# senders' ports are ephemeral)
read -r nfl bmax < <(nq_awk 'sp > 10000 { seen[sp] = 1; if (bs > m) m = bs }
	END { for (k in seen) n++; print n + 0, m + 0 }')
ktap_expect "D: senders traced" "$nfl" '>=' 12
ktap_expect "D: largest base RTT" "$bmax" in "1..$((NS_RTT * 1000 + 1000))" us "the path's, not the queue's"
dcc_result quadrants_prop_events "$np"
dcc_result quadrants_fair_events "$nf"
dcc_result quadrants_md_events "$nmd"
dcc_result quadrants_steer_events "$ns"
dcc_result quadrants_qa_events "$nqa"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
