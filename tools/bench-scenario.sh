#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench-scenario.sh: run one benchmark scenario for a list of congestion
# controls through the netns bottleneck of selftests/net_lib.sh.  Runs inside
# the guest (root, netem): tools/vmtest -- tools/bench-scenario.sh [options]
#
#   --scenario NAME    steady (default; the only one so far)
#   --ccs "A B ..."    congestion controls (default: "cubic bbr dctcp")
#   --duration S       seconds per run (default 10)
#   --reps R           repetitions per CC (default 1)
#   --rate-mbit R      bottleneck rate (default 100)
#   --rtt-ms T         base RTT (default 10)
#   --limit-pkts P     bottleneck queue limit (default: 1 BDP, at least 20)
#   --dctcp-k-bytes K  RED CE-marking threshold used for dctcp (default 30000,
#                      about 20 packets, ~0.24 BDP at 100 Mbit/s x 10 ms); 0 =
#                      dctcp over the same drop-tail queue as the others (ECN
#                      negotiated, never marked: it then behaves like reno)
#   --quickack 0|1     receiver ACKs every segment, for every CC (default 1:
#                      the datacenter transports the dcc algorithms come
#                      from ACK per packet; delayed ACKs inflate a paced
#                      flow's RTT samples by up to one packet gap)
#   --out DIR          results (default $DCC_OUT/bench, DCC_OUT default /tmp/dcc-out)
#
# Scenario "steady": one long-lived flow of the CC alone through the
# bottleneck (rate R, base RTT T, FIFO queue of limit P packets, offloads off).
# dctcp gets ECN on the endpoints and a RED queue with the same hard limit that
# CE-marks above K bytes (what DCTCP is designed for); every other CC gets the
# plain drop-tail FIFO.  A fresh topology per CC, reused for its repetitions.
#
# Output: DIR/<cc>/<rep>/ with flows.csv, queue.csv, iperf.csv, summary.{tsv,json}
# (see selftests/net_lib.sh), and DIR/summary.tsv, one row per run:
#   scenario cc rep throughput_mbit util_pct mean_rtt_ms p99_rtt_ms
#   mean_qdelay_ms retrans mean_backlog_pkts rate_mbit base_rtt_ms cc_ok drops marks
# (throughput and the rest over the window from start+min(2 s, D/3) to the end;
# mean_qdelay_ms = mean ss RTT - base RTT).  Exit 1 if any run failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../selftests/net_lib.sh
source "$root/selftests/net_lib.sh"

scenario=steady ccs="cubic bbr dctcp" dur=10 reps=1 rate=100 rtt=10 limit='' dk=30000 out='' quickack=1
while (($#)); do
	case $1 in
	--scenario) scenario=$2; shift ;;
	--ccs) ccs=$2; shift ;;
	--duration) dur=$2; shift ;;
	--reps) reps=$2; shift ;;
	--rate-mbit) rate=$2; shift ;;
	--rtt-ms) rtt=$2; shift ;;
	--limit-pkts) limit=$2; shift ;;
	--dctcp-k-bytes) dk=$2; shift ;;
	--quickack) quickack=$2; shift ;;
	--out) out=$2; shift ;;
	-h | --help) sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-scenario: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
out=${out:-$DCC_OUT/bench}
mkdir -p "$out"
sum=$out/summary.tsv
printf 'scenario\tcc\trep\tthroughput_mbit\tutil_pct\tmean_rtt_ms\tp99_rtt_ms\tmean_qdelay_ms\tretrans\tmean_backlog_pkts\trate_mbit\tbase_rtt_ms\tcc_ok\tdrops\tmarks\n' >"$sum"

t_start=${EPOCHREALTIME/./}
progress() { echo "[bench $(((${EPOCHREALTIME/./} - t_start) / 1000000))s] $*"; }

[[ $(id -u) == 0 ]] || { echo "bench-scenario: needs root (run it in the guest)" >&2; exit 1; }

scenario_steady() { # CC
	local cc=$1 rep
	local args=(--rate-mbit "$rate" --rtt-ms "$rtt" --dir "$out/.net-$cc")
	# net_setup keeps its effective config in NET_*, which it also reads as
	# defaults: reset what only dctcp sets, or it leaks into the next CC
	NET_ECN=0 NET_ECN_K_BYTES=
	[[ -n $limit ]] && args+=(--limit-pkts "$limit")
	if [[ $cc == dctcp ]]; then
		if [[ $dk != 0 ]]; then args+=(--ecn-k-bytes "$dk"); else args+=(--ecn); fi
	fi
	net_setup "${args[@]}" || return 1
	if [[ $quickack == 1 ]]; then net_quickack || return 1; fi
	for ((rep = 1; rep <= reps; rep++)); do
		progress "$scenario $cc rep $rep/$reps: $dur s"
		net_new_run "$out/$cc/$rep"
		local ok=1
		net_run_flows --cc "$cc" --n 1 --duration "$dur" || ok=0
		if ! net_summarize; then
			progress "$scenario $cc rep $rep: FAILED (no summary)"
			failed=1
			continue
		fi
		((ok)) || failed=1
		local -A v=()
		local k x
		while IFS=$'\t' read -r k x; do v[$k]=$x; done <"$NET_RUN/summary.tsv"
		local thr qd
		thr=$(awk -v b="${v[agg_window_throughput_bps]}" 'BEGIN { printf "%.2f", b / 1e6 }')
		qd=$(awk -v m="${v[mean_rtt_ms]}" -v b="$rtt" 'BEGIN { if (m == "nan") print "nan"; else printf "%.3f", m - b }')
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$scenario" "$cc" "$rep" \
			"$thr" "${v[util_pct]}" "${v[mean_rtt_ms]}" "${v[p99_rtt_ms]}" "$qd" "${v[retransmits]}" \
			"${v[mean_backlog_pkts]}" "$rate" "$rtt" "${v[cc_ok]}" "${v[drops]}" "${v[marks]}" >>"$sum"
		progress "$scenario $cc rep $rep: $thr Mbit/s (${v[util_pct]}%), rtt mean ${v[mean_rtt_ms]} p99 ${v[p99_rtt_ms]} ms, qdelay $qd ms, backlog ${v[mean_backlog_pkts]} pkts, retrans ${v[retransmits]}, drops ${v[drops]}, marks ${v[marks]}, cc_ok ${v[cc_ok]}$( ((ok)) || echo ', FLOW ERROR')"
		((v[cc_ok] == 1)) || failed=1
	done
	net_cleanup
}

declare -F "scenario_$scenario" >/dev/null || { echo "bench-scenario: no scenario '$scenario'" >&2; exit 2; }
progress "scenario $scenario: ccs [$ccs], $reps x $dur s, $rate Mbit/s, base RTT $rtt ms -> $out"
failed=0
for cc in $ccs; do
	if ! net_cc_load "$cc"; then
		progress "$cc: not available, skipped"
		failed=1
		continue
	fi
	"scenario_$scenario" "$cc" || { progress "$cc: setup failed"; failed=1; net_cleanup; }
done
progress "done; $sum"
column -t -s $'\t' "$sum" 2>/dev/null || cat "$sum"
exit $failed
