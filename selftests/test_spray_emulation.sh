#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The packet-spraying emulation (net_setup --paths P --congested K, the
# multi-path bottleneck of the spraying tests): every packet takes one of P
# paths at random, K of them with a standing queue of --congested-ms.
#
#  1. P = 4, K = 1, +20 ms: about a quarter of the packets (pings, one
#     sample each) see the extra delay: fraction in [0.10, 0.45] of 80;
#     the others see the base RTT (median within 3 ms of it);
#  2. P = 4, K = 0: no packet sees extra delay (max < base + 10 ms);
#  3. a cubic flow through P = 4, K = 0 still fills >= 80% of the link, i.e.
#     spraying adds no capacity loss of its own;
#  4. a cubic flow through P = 4, K = 1 meets reordering (ss reord_seen or
#     retransmissions > 0): the congested path really reorders;
#  5. any share q of the packets on the congested path (--congested-q 0.05,
#     P = 4, K = 1) with CE marking there (--congested-ce): 200 pings (not
#     ECT: never marked, the receiver's IpExtInCEPkts stays 0) see the
#     extra delay in 1-12% of the cases;
#  6. a dctcp flow (ECN, ECT(0) data; the sender tolerating 300 packets of
#     reordering, so that it sends enough for the count: 2594 packets in 4 s
#     without) through the same paths: the receiver counts CE on 3-7% of its
#     ECN-capable packets (q = 5%), i.e. the congested path marks what it
#     carries and nothing else does.
source "$(dirname "$0")/net_lib.sh"

RATE=100 RTT=10 EXTRA=20

ktap_print_header
require_root
require_cmd ip tc ping iperf3 jq
ktap_set_plan 10
dmesg_mark

# ping samples (ms) through the sprayed path, one per line
spray_pings() { # N
	ip netns exec "${NET_NS_S[0]}" ping -n -c "$(($1 + 1))" -i 0.02 "$NET_DST_IP" 2>/dev/null |
		awk '/time=/ { n++; if (n == 1) next; sub(/.*time=/, ""); print $1 + 0 }'
}

if ! net_setup --rate-mbit $RATE --rtt-ms $RTT --paths 4 --congested 1 --congested-ms $EXTRA; then
	ktap_test_fail "spraying topology (4 paths, 1 congested)"
	for _ in $(seq 2 10); do ktap_test_skip "needs the topology"; done
	ktap_finished
fi
mapfile -t S < <(spray_pings 80)
slow=$(printf '%s\n' "${S[@]}" | awk -v t=$((RTT + EXTRA / 2)) '$1 > t { s++ } END { printf "%.3f", s / NR }')
med=$(printf '%s\n' "${S[@]}" | percentile 50)
log_info "P=4 K=1 +$EXTRA ms: ${#S[@]} pings, fraction slow $slow, median $med ms"
if ((${#S[@]} >= 70)) && fge "$slow" 0.10 && fle "$slow" 0.45 &&
	fle "$med" $((RTT + 3)); then
	ktap_test_pass "one of 4 paths congested: $slow of packets +$EXTRA ms (expect ~0.25), median RTT $med ms"
else
	ktap_test_fail "one of 4 paths congested: $slow of packets +$EXTRA ms (expect ~0.25), median RTT $med ms"
fi

net_setup --rate-mbit $RATE --rtt-ms $RTT --paths 4 --congested 0
mapfile -t S < <(spray_pings 40)
mx=$(printf '%s\n' "${S[@]}" | sort -g | tail -n 1)
ktap_expect "4 paths, none congested: pings answered, of 40" "${#S[@]}" '>=' 35
ktap_expect "4 paths, none congested: max ping RTT" "$mx" '<' $((RTT + 10)) ms
net_run_single cubic 6 2
util=$(net_get util_pct)
log_info "cubic, 4 clean paths: $(net_summary_line)"
ktap_expect "cubic through 4 clean paths: utilisation" "$util" '>=' 80 %

net_setup --rate-mbit $RATE --rtt-ms $RTT --paths 4 --congested 1 --congested-ms $EXTRA
net_run_single cubic 6 2
log_info "cubic, 1 of 4 paths congested: $(net_summary_line)"
retr=$(net_get retransmits)
ktap_expect "cubic through 1 congested path of 4 meets reordering: retransmissions" "$retr" '>' 0

# the receiver's IP ECN counters, absolute (its namespace starts at zero)
rx_ecn() { ip netns exec "$NET_NS_D" nstat -az IpExtInCEPkts IpExtInECT0Pkts | awk '$1 == "IpExtInCEPkts" { c = $2 } $1 == "IpExtInECT0Pkts" { e = $2 } END { print c + 0, e + 0 }'; }
Q=0.05
net_setup --rate-mbit $RATE --rtt-ms $RTT --paths 4 --congested 1 --congested-ms $EXTRA \
	--congested-q $Q --congested-ce --ecn --reorder-tol 300
mapfile -t S < <(spray_pings 200)
slow=$(printf '%s\n' "${S[@]}" | awk -v t=$((RTT + EXTRA / 2)) '$1 > t { s++ } END { printf "%.3f", s / NR }')
read -r ce0 _ < <(rx_ecn)
log_info "P=4 K=1 q=$Q +$EXTRA ms, CE-marking: ${#S[@]} pings, fraction slow $slow, receiver CE $ce0"
ktap_expect "q = $Q: pings answered, of 200" "${#S[@]}" '>=' 180
ktap_expect "q = $Q of the packets on the congested path: the share of pings +$EXTRA ms" "$slow" in 0.01..0.12
ktap_expect "pings CE-marked (not ECT: none may be)" "$ce0" == 0
net_run_single dctcp 4 1
read -r ce ect < <(rx_ecn)
frac=$(fcalc "$ce / ($ce + $ect + 0.001)")
log_info "dctcp, q=$Q CE-marking path: $(net_summary_line); receiver CE $ce, ECT(0) $ect"
ktap_expect "the congested path CE-marks ECT(0) packets: $ce of $((ce + ect)) ECN-capable packets CE at the receiver" \
	"$(fround "$frac" 3)" in 0.03..0.07 '' "q = $Q"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
