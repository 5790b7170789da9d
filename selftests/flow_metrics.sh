# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Time-series metrics over a net_lib run's flows.csv (columns: t, flow, cc,
# cwnd, rtt_ms, pacing_rate_bps, delivery_rate_bps, bytes_acked, retrans,
# ...; t in seconds since the run's t0, one row per flow per sample).
# Used by the algorithm tests.
#
#   fm_bins CSV BIN_S            per-flow throughput per bin:
#                                "bin_end_s flow bps" lines, from bytes_acked
#   fm_converge CSV START BIN_S TOL FLOWS...
#                                seconds from START until the first bin in which
#                                every listed flow is within TOL (0.2 = 20%) of
#                                the bin's fair share (sum of the listed flows'
#                                throughput / their count) and stays so for the
#                                next bin too; "nan" if never
#   fm_retrans_between CSV T1 T2  retransmitted segments (all flows) in [T1,T2]
#   fm_mean_rtt_ms CSV T1 T2      mean of ss RTT samples in [T1,T2], all flows

fm_bins() { # CSV BIN_S
	awk -F, -v bin="$2" 'NR > 1 {
		b = int($1 / bin); f = $2
		last[f, b] = $8; seen[f] = 1; if (b > maxb) maxb = b
	} END {
		for (f in seen) {
			prev = ""
			for (b = 0; b <= maxb; b++) {
				if ((f, b) in last) {
					if (prev != "" && last[f, b] >= prev)
						printf "%.3f %s %.0f\n", (b + 1) * bin, f, (last[f, b] - prev) * 8 / bin
					prev = last[f, b]
				}
			}
		}
	}' "$1" | sort -g -k1,1 -k2,2
}

fm_converge() { # CSV START BIN_S TOL FLOWS...
	local csv=$1 start=$2 bin=$3 tol=$4
	shift 4
	# fm_bins is sorted by time: judge each bin when the next one begins
	{ fm_bins "$csv" "$bin"; echo "inf - 0"; } | awk -v start="$start" \
		-v bin="$bin" -v tol="$tol" -v want="$*" '
		function judge(   i, s, c, x, good) {
			s = 0; c = 0
			for (i = 1; i <= n; i++) if (w[i] in v) { s += v[w[i]]; c++ }
			good = (c == n && s > 0)
			for (i = 1; good && i <= n; i++) {
				x = v[w[i]] / (s / n)
				if (x < 1 - tol || x > 1 + tol) good = 0
			}
			if (good && ok_prev) { printf "%.3f\n", tprev - start; found = 1; exit }
			ok_prev = good; tprev = cur - bin
			split("", v)
		}
		BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) isw[w[i]] = 1; cur = "" }
		$1 != cur { if (cur != "" && cur - 0 > start + 0) judge(); cur = $1 }
		isw[$2] { v[$2] = $3 }
		END { if (!found) print "nan" }'
}

fm_retrans_between() { # CSV T1 T2
	awk -F, -v a="$2" -v b="$3" 'NR > 1 {
		if ($1 <= a) first[$2] = $9
		else if (!($2 in first)) first[$2] = $9
		if ($1 <= b) lastv[$2] = $9
	} END { s = 0; for (f in lastv) s += lastv[f] - first[f]; print s }' "$1"
}

fm_mean_rtt_ms() { # CSV T1 T2
	awk -F, -v a="$2" -v b="$3" 'NR > 1 && $1 >= a && $1 <= b && $5 > 0 { s += $5; n++ }
		END { if (n) printf "%.3f\n", s / n; else print "nan" }' "$1"
}
