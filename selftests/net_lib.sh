# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# dcc selftests: the network-namespace bottleneck library.  Source it (it
# sources lib.sh).  Needs root, iproute2 (ip, tc, ss), iperf3, ethtool, jq,
# awk, sort; netem/ifb only when a delay is configured.  Runs in the qemu guest
# (tools/vmtest); a host without netem can use --rtt-ms 0.
#
# TOPOLOGY
#
#   sender 0 ─┐ eth0          s0 ┌────────┐ d0  bottleneck    eth0
#   sender 1 ─┼──────── veth ────┤ router ├────────────────────────▶ receiver
#   …        ─┘ 10.1.<i>.2  10.1.<i>.1  └────────┘ 10.2.0.1        10.2.0.2
#
#   Namespaces ${NET_PFX}s<i> (senders), ${NET_PFX}r (router), ${NET_PFX}d
#   (receiver); NET_PFX = dcc<pid><rand>- is unique per net_setup.  Every
#   sender has its own veth pair and /24 to the router.  N-to-1 incast: many
#   flows from one sender netns (cheapest), or flows spread round-robin over up
#   to 64 sender netns (each may have its own RTT).
#
#   Base RTT: netem, never on the bottleneck device.  The reverse part
#   (rtt - fwd) is netem on the router's egress toward sender i (the ACK path);
#   the forward part is netem on an ifb (f<i>) fed by the router's ingress from
#   sender i (ingress qdisc + matchall mirred).  Default fwd = rtt/2;
#   --fwd-ms 0 puts it all on the ACK path (no ifb).  No netem when rtt is 0.
#
#   Non-ECN path (--strip-ecn-syn), as a middlebox or peer that does not do
#   ECN: the router's ingress from each sender (ingress qdisc on s<i>, added
#   if the delays did not need one) gets, ahead of the forward-delay
#   matchall (which then moves to prio 2), a u32 filter at prio 1 on IPv4
#   TCP SYNs without IP options (ihl 5, SYN bit at byte 33):
#   pedit clears ECE and CWR (byte 33, 0xc0), csum tcp recomputes the TCP
#   checksum, and "continue" hands the SYN on to the matchall.  The receiver
#   then sees a non-ECN SYN and answers without ECE, so ECN is not
#   negotiated whatever tcp_ecn says on either end or whichever CC (one with
#   TCP_CONG_NEEDS_ECN requests ECN in its SYN and, on a listener, accepts
#   it regardless of tcp_ecn).  Only the handshake is touched: data packets
#   keep the ECT codepoint their sender sets (a NEEDS_ECN CC keeps ECT on
#   without negotiation, as dctcp does).  Needs act_pedit, act_csum, cls_u32.
#
#   Spraying (--paths P > 1), after the model of [M] ("Congestion Control
#   for Spraying with Congested Paths", section II, Fig. 1):
#   the forward netem on ifb f<i> becomes a prio qdisc with P bands, each a
#   netem "path" (fwd delay, plus --congested-ms on the first K bands), and
#   P-1 cls_basic filters meta(random) send each packet to band k with
#   probability 1/P (chained: filter k takes 1/(P-k+1) of what is left; the
#   rest falls through the priomap to the last band).  So a fraction K/P of a
#   flow's packets crosses a path with a standing queue of --congested-ms
#   (probability q, delays T_s/T_l in [M]), they arrive reordered, and the
#   shared rate limit on d0 stays the one bottleneck.  ACKs are not sprayed.
#
#   Bottleneck on the router's egress d0 (the only queue that builds):
#     --shaper htb (default): root 1: htb, class 1:1 rate=ceil=R, burst B, and
#                  the queue as leaf qdisc handle 10: (parent 1:1)
#     --shaper tbf: root 1: tbf rate R burst B, the same leaf 10: as its child
#     --shaper netem: root 10: netem rate R limit P (packet limit only, no ECN
#                  marking; keeps the average rate even when timers fire late)
#     leaf:  pfifo limit P            (--limit-pkts, the default)
#            bfifo limit B            (--limit-bytes)
#            red ... ecn nodrop       (--ecn-k-bytes K): CE-marks ECT packets
#              when the queue exceeds K bytes and queues non-ECT ones (SYNs,
#              handshake ACKs) up to the hard limit instead of early-dropping
#              them (RED's default with ecn; a dropped SYN in an incast costs
#              that flow a 1 s RTO and skews the run): min=K,
#              max=K+1, probability 1, burst=ceil(K/avpkt) (EWMA weight 1/2, i.e.
#              close to the instantaneous queue); hard limit = the queue limit.
#   All path veths: TSO/GSO/GRO off (MTU-sized packets, so packet limits are
#   packets), rps_cpus=1 (with 2 vCPUs veth reorders otherwise; env NET_RPS=
#   ROUTER_MASK,HOST_MASK to change).  Sysctls:
#   tcp_no_metrics_save=1 everywhere, ip_forward=1 on the router, tcp_ecn=1 on
#   senders and receiver with --ecn (else the default 2).  The CC is set per
#   socket (iperf3 -C; root may use any loaded CC); no namespace default and
#   no tcp_allowed_congestion_control is touched (shared notes, pitfall 5).
#
# SETUP:  net_setup [options]        (each also as an env var, shown in [])
#   --senders N        sender namespaces, 1..64                  [NET_SENDERS=1]
#   --rate-mbit R      bottleneck rate, Mbit/s                   [NET_RATE_MBIT=100]
#   --rtt-ms T[,T..]   base RTT per sender (a list gives sender i item i, the
#                      last item repeats); 0 = no netem          [NET_RTT_MS=10]
#   --fwd-ms F[,F..]   forward one-way share of the RTT (default RTT/2)
#                                                                [NET_FWD_MS]
#   --limit-pkts P     queue limit in packets (default: 1 BDP of the largest
#                      RTT in 1514-byte packets, at least 20)    [NET_LIMIT_PKTS]
#   --limit-bytes B    queue limit in bytes instead              [NET_LIMIT_BYTES]
#   --ecn-k-bytes K    RED CE marking above K bytes; implies --ecn
#                                                                [NET_ECN_K_BYTES]
#   --ecn              tcp_ecn=1 in senders and receiver         [NET_ECN=0]
#   --strip-ecn-syn    clear ECE/CWR in the senders' SYNs on the router, so
#                      ECN is never negotiated (see "Non-ECN path")
#                                                                [NET_STRIP_ECN_SYN=0]
#   --reorder-tol N    senders tolerate N packets of reordering: RACK off
#                      (tcp_recovery=0) and dupthresh tcp_reordering=N, as a
#                      sprayed fabric's transport would (SLEEK's cwnd-sized
#                      tolerance); 0 keeps Linux's defaults (RACK, reo_wnd
#                      <= srtt)                                   [NET_REORDER_TOL=0]
#   --shaper S         htb | tbf | netem                         [NET_SHAPER=htb]
#   --burst-bytes B    htb/tbf burst (default max(2*1514, 1 ms at the rate))
#                                                                [NET_BURST_BYTES]
#   --offloads         keep TSO/GSO/GRO on (then use byte limits)  [NET_OFFLOADS=0]
#   --period-ms P      sampler period                            [NET_PERIOD_MS=100]
#   --paths P          packet spraying: every data packet takes one of P
#                      emulated paths at random (1 = no spraying, max 8)
#                                                                [NET_PATHS=1]
#   --congested K      the first K of the P paths are congested: their
#                      packets see --congested-ms more one-way delay
#                                                                [NET_CONGESTED=0]
#   --congested-ms D   extra delay of a congested path (default: the largest
#                      base RTT, i.e. a congested path's RTT is 2x base)
#                                                                [NET_CONGESTED_MS]
#   --congested-q Q    the share of the packets that take the congested
#                      paths, any Q in (0, 1) (q in [M]; it needs 1 <= K <
#                      P): Q/K per congested path, the rest spread over the
#                      others; default K/P (every path equally likely)
#                                                                [NET_CONGESTED_Q]
#   --congested-ce     the congested paths CE-mark the ECT(0) packets they
#                      carry (a congested queue past its marking threshold,
#                      as [M] assumes), not only delay them [NET_CONGESTED_CE=0]
#   --ack-hops H[,H..] sender i's path crosses H more routers (the list
#                      as --rtt-ms'): the receiver decrements the IP TTL
#                      of what it sends to sender i by H (clsact egress
#                      on its eth0, u32 on the destination /24, pedit
#                      "ex munge ip ttl add 256-H", csum ip), so sender
#                      i's ACKs arrive with TTL 63 - H (the router takes
#                      one), as from a path of 1 + H hops; 0 = none
#                                                                [NET_ACK_HOPS]
#   --dir DIR          where runs go     [NET_DIR=$DCC_OUT/net/<test>-<prefix>]
#   Calls net_cleanup first if a topology exists, and registers net_cleanup at
#   exit (dcc_on_exit).  Sets NET_NS_S (array), NET_NS_R, NET_NS_D, NET_DST_IP,
#   NET_BN_DEV (d0, in NET_NS_R), NET_RTT_LIST/NET_FWD_LIST (arrays),
#   NET_LIMIT_PKTS/NET_LIMIT_BYTES, NET_LEAF (the queue qdisc's tc spec).
#   Note: `NET_X=v net_setup` (a prefix assignment) does not outlive the call;
#   export or assign the variable first, or pass the option.
#
# RUNS AND FLOWS
#   net_new_run [DIR]   open a new run dir (default $NET_DIR/run<k>); called by
#                       net_start_flows when no run is open
#   net_start_flows --cc NAME [--n N] [--duration S] [--stagger S]
#                   [--port-base P] [--from-sender i] [--interval S]
#                   [--iperf-args "..."]
#       N (default 1) iperf3 clients "-C NAME -J --logfile", each to its own
#       one-shot server (-s -1) on the receiver at port P+k (default 5201 + the
#       flow's index in the run).  Once the servers listen, flow k of this call
#       starts at +0.2 s + k*stagger; flows go round-robin over the senders
#       unless --from-sender.  --interval: iperf3 report interval (default 0.1 s
#       up to 4 flows, 0.2 up to 16, else 0.5).  Call it several times before
#       net_wait_flows for mixes (e.g. two CCs).  Starts the sampler on the
#       first call of a run; loads tcp_NAME if NAME is not available yet.
#   net_wait_flows [--timeout S]
#       waits for every flow of the run (default deadline: last actual start +
#       duration + 20 s), stops the sampler, writes the CSVs.  Returns 1 if a
#       flow failed (no JSON or an iperf3 "error").
#   net_bpftrace SCRIPT LOG TENTHS [VAR=VALUE...]
#       bpftrace SCRIPT in the background (output to LOG, pid in NET_BT_PID,
#       VAR=VALUE in its environment), then waits up to TENTHS x 0.1 s until
#       every probe of SCRIPT is attached; returns 1 if it exited first or
#       is not attached by then.  "Attaching" (bpftrace's first line) and
#       BEGIN both come before the probes are loaded and attached, which
#       under TCG took more than the 1.5 s a burst run leaves its trace
#       (the trace then began mid-burst).  So SCRIPT runs between two
#       sentinel probes on getppid(), one before its first probe and one
#       after its last (bpftrace attaches in declaration order or its
#       reverse, by version), each printing "net_bpftrace: live N"; a
#       "bash -c :" per poll calls getppid().  SCRIPT's consumers see
#       those lines in LOG.
#   net_run_flows ARGS  = net_start_flows ARGS && net_wait_flows
#
# SAMPLER (background; started/stopped for you)
#   Every period: one "tc -s -j qdisc show dev d0", fed to a tc batch-mode
#   coprocess (no exec per sample), and one `ss -tinHO` exec per sender netns.
#   An exec costs 40-150 ms in the TCG guest, so ss runs only every k-th
#   period when it would take more than NET_SS_MAX_DUTY (default 0.2) of the
#   period; per-flow 100 ms data comes for free from iperf3 (iperf.csv).
#   net_sampler_start [--period-ms P] / net_sampler_stop
#
# OUTPUT FILES in the run dir ($NET_RUN); t = seconds since the run's t0
#   t0            epoch seconds of the run's time origin
#   net.conf      configuration (key=value)
#   flows.tsv     flow port cc sender start_s   (actual launch times)
#   flow<k>.json, flow<k>.server.json   iperf3 client / server JSON
#   flows.csv     t,flow,cc,cwnd,rtt_ms,pacing_rate_bps,delivery_rate_bps,
#                 bytes_acked,retrans,minrtt_ms,unacked,port
#                 from ss: cc as ss reports it, cwnd in packets, rtt = srtt,
#                 retrans = total retransmitted segments; data socket only
#   queue.csv     t,backlog_bytes,backlog_pkts,drops,marks,sent_bytes,sent_pkts
#                 bottleneck queue (leaf 10:); drops/marks/sent cumulative
#   iperf.csv     t,flow,bytes,throughput_bps,cwnd,rtt_ms,rttvar_ms,retrans,snd_wnd
#                 iperf3 client intervals (t = interval end; cwnd in bytes;
#                 bytes sent in the interval, retrans in the interval)
#   raw_ss.txt, raw_tc.txt, starts-<sender>.txt   raw material
#   summary.tsv, summary_flows.tsv, summary.json  from net_summarize
#
# SUMMARY:  net_summarize [--window T1 T2] [DIR]
#   Window [T1,T2] in seconds since t0; default: last flow start + min(2 s, a
#   third of the common period) .. first flow end.
#   summary_flows.tsv (with header): flow cc sender_tcp_congestion sender port
#     start_s throughput_bps window_throughput_bps acked_window_bps retransmits
#     mean_rtt_ms p99_rtt_ms min_rtt_ms samples error
#     throughput_bps = iperf3 end.sum_received (whole run); window_throughput_bps
#     = iperf3 server-side (receiver) intervals pro rata over the window;
#     acked_window_bps = bytes_acked slope in flows.csv; RTTs = ss samples in
#     the window; error "-" if none.
#   summary.tsv (key<TAB>value): rate_mbit window_t1 window_t2 n_flows
#     agg_throughput_bps (sum of whole-run averages) agg_window_throughput_bps
#     util_pct (window throughput / rate) jain (over window throughputs)
#     mean_rtt_ms p99_rtt_ms min_rtt_ms rtt_samples (ss, all flows)
#     iperf_mean_rtt_ms iperf_p99_rtt_ms (iperf.csv) retransmits
#     mean_backlog_bytes p99_backlog_bytes mean_backlog_pkts p99_backlog_pkts
#     max_backlog_pkts mean_qdelay_ms (mean backlog at the rate) queue_samples
#     drops marks (whole run) window_drops window_marks
#     cc_ok (every flow's sender_tcp_congestion == requested) flows_ok
#   summary.json: {"config":{net.conf}, "aggregate":{summary.tsv},
#                  "flows":[{summary_flows.tsv row}, ...]}
#   net_get KEY [DIR]               a summary.tsv value
#   net_flow_get FLOW COLUMN [DIR]  a summary_flows.tsv value
#   net_summary_line [DIR]          one human-readable line
#   net_last_start [DIR]            the last flow's launch time (s, flows.tsv)
#
# OTHER HELPERS
#   net_ping_rtt [--count N] [--from-sender i]   idle RTT: mean of N pings in
#                       ms (an extra first ping, with ARP, is dropped)
#   net_cc_load NAME    modprobe tcp_NAME unless NAME is available; status
#   net_qdisc_stats     tc -s qdisc show dev d0 (for logs)
#   net_cleanup         kill every process in our namespaces, delete them
#   jain X... | jain    Jain's fairness index of the arguments (or stdin lines)
#   percentile P        P-th percentile (nearest rank) of the numbers on stdin
#   mean                mean of the numbers on stdin
#
# COST: each exec is 40-150 ms of guest CPU under TCG (more when the host is
# busy), so the library avoids them in loops (bash builtins, one awk/jq per
# step).  Setup ~3-5 s, summary ~1-2 s; 64 flows take ~5 s to launch.

[[ -n ${_DCC_NET_LIB_SH:-} ]] && return 0
_DCC_NET_LIB_SH=1
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NET_MTU_WIRE=1514
NET_DST_IP=10.2.0.2
NET_BN_DEV=d0
NET_PFX=
NET_NS_S=()
NET_NS_R=
NET_NS_D=
NET_RUN=
NET_RUN_OPEN=0
NET_RUN_SEQ=0
NET_SAMPLER_PID=
NET_NFLOWS=0
NET_LAUNCHERS=()
NET_SERVER_PIDS=()
NET_RUN_END_US=0
NET_MAX_DUR_US=0

# ---- numeric helpers (also for other scripts) ------------------------------

# jain X1 X2 ... (or numbers on stdin)
jain() {
	{ if (($#)); then printf '%s\n' "$@"; else cat; fi; } |
		awk '{ s += $1; q += $1 * $1; n++ }
		     END { if (n == 0 || q == 0) print "nan"; else printf "%.4f\n", s * s / (n * q) }'
}

# percentile P < numbers    (nearest rank)
percentile() {
	sort -g | awk -v p="$1" '{ v[++n] = $1 }
		END { if (!n) { print "nan"; exit }
		      r = int(p / 100 * n); if (r < p / 100 * n) r++; if (r < 1) r = 1
		      print v[r] }'
}

mean() { awk '{ s += $1; n++ } END { if (n) printf "%.6g\n", s / n; else print "nan" }'; }

# ---- fork-free time helpers (an exec costs 50-150 ms in the TCG guest) -------

# _net_us VAR SECONDS: float seconds -> integer microseconds
_net_us() {
	local __s=$2 __i __f=
	__i=${__s%%.*}
	[[ $__s == *.* ]] && __f=${__s#*.}
	__f=${__f}000000
	printf -v "$1" '%d' $((10#${__i:-0} * 1000000 + 10#${__f:0:6}))
}
# _net_s VAR MICROSECONDS: -> seconds with 3 decimals
_net_s() {
	local __u=$2 __sg=
	((__u < 0)) && { __sg=-; __u=$((-__u)); }
	printf -v "$1" '%s%d.%03d' "$__sg" $((__u / 1000000)) $(((__u % 1000000) / 1000))
}
_net_sleep() {
	[[ -n ${_NET_SFD:-} ]] || exec {_NET_SFD}<> <(:)
	read -r -t "$1" -u "$_NET_SFD" _
	return 0
}

net_bpftrace() { # SCRIPT LOG TENTHS [VAR=VALUE...]
	local bt=$1 log=$2 n=$3 i live=$1.live
	local probe='tracepoint:syscalls:sys_enter_getppid { printf("net_bpftrace: live %d\n", '
	shift 3
	{ echo "$probe 1); }"; cat "$bt"; echo; echo "$probe 2); }"; } >"$live"
	env "$@" bpftrace "$live" >"$log" 2>&1 &
	NET_BT_PID=$!
	for ((i = 0; i < n; i++)); do
		kill -0 "$NET_BT_PID" 2>/dev/null || return 1
		bash -c :
		grep -q '^net_bpftrace: live 1' "$log" 2>/dev/null &&
			grep -q '^net_bpftrace: live 2' "$log" 2>/dev/null && return 0
		_net_sleep 0.1
	done
	echo "net_bpftrace: $bt not attached after $((n / 10)) s" >&2
	net_bpftrace_stop 30 "$NET_BT_PID"
	return 1
}

# net_bpftrace_stop SECONDS [PID]: end a net_bpftrace (default: the last
# one started) with its END block run; its getppid probe is the nudge
# dcc_bt_stop needs when bpftrace 0.17 missed the SIGINT
net_bpftrace_stop() {
	dcc_bt_stop "$1" "${2:-$NET_BT_PID}" bash -c :
}

_net_die() {
	echo "# net_lib: $*" >&2
	return 1
}

# ---- setup ------------------------------------------------------------------

net_setup() {
	local senders=${NET_SENDERS:-1} rate=${NET_RATE_MBIT:-100} rtt=${NET_RTT_MS:-10}
	local fwd=${NET_FWD_MS:-} lpk=${NET_LIMIT_PKTS:-} lby=${NET_LIMIT_BYTES:-}
	local k=${NET_ECN_K_BYTES:-} ecn=${NET_ECN:-0} shaper=${NET_SHAPER:-htb}
	local burst=${NET_BURST_BYTES:-} offl=${NET_OFFLOADS:-0}
	local period=${NET_PERIOD_MS:-100} dir=${NET_DIR:-}
	local paths=${NET_PATHS:-1} ncong=${NET_CONGESTED:-0} cong_ms=${NET_CONGESTED_MS:-}
	local strip=${NET_STRIP_ECN_SYN:-0} reord=${NET_REORDER_TOL:-0}
	local cq=${NET_CONGESTED_Q:-} cce=${NET_CONGESTED_CE:-0} ahops=${NET_ACK_HOPS:-}
	while (($#)); do
		case $1 in
		--senders) senders=$2; shift ;;
		--rate-mbit) rate=$2; shift ;;
		--rtt-ms) rtt=$2; shift ;;
		--fwd-ms) fwd=$2; shift ;;
		--limit-pkts) lpk=$2; lby=; shift ;;
		--limit-bytes) lby=$2; lpk=; shift ;;
		--ecn-k-bytes) k=$2; ecn=1; shift ;;
		--ecn) ecn=1 ;;
		--strip-ecn-syn) strip=1 ;;
		--reorder-tol) reord=$2; shift ;;
		--shaper) shaper=$2; shift ;;
		--burst-bytes) burst=$2; shift ;;
		--offloads) offl=1 ;;
		--period-ms) period=$2; shift ;;
		--dir) dir=$2; shift ;;
		--paths) paths=$2; shift ;;
		--congested) ncong=$2; shift ;;
		--congested-ms) cong_ms=$2; shift ;;
		--congested-q) cq=$2; shift ;;
		--congested-ce) cce=1 ;;
		--ack-hops) ahops=$2; shift ;;
		*) _net_die "net_setup: unknown option $1"; return 1 ;;
		esac
		shift
	done
	[[ -n $k ]] && ecn=1
	((senders >= 1 && senders <= 64)) || { _net_die "--senders must be 1..64"; return 1; }
	[[ $shaper == htb || $shaper == tbf || $shaper == netem ]] || { _net_die "--shaper htb|tbf|netem"; return 1; }
	[[ $shaper == netem && -n $k ]] && { _net_die "--shaper netem cannot CE-mark (--ecn-k-bytes): use htb"; return 1; }
	[[ $strip == [01] ]] || { _net_die "NET_STRIP_ECN_SYN must be 0 or 1"; return 1; }
	[[ $reord =~ ^[0-9]+$ ]] && ((reord <= 300)) || { _net_die "--reorder-tol must be 0..300 (tcp_max_reordering)"; return 1; }
	[[ $paths =~ ^[1-8]$ ]] || { _net_die "--paths must be 1..8"; return 1; }
	[[ $ncong =~ ^[0-9]$ ]] && ((ncong <= paths)) || { _net_die "--congested must be 0..--paths"; return 1; }
	if [[ -n $cq ]]; then
		[[ $cq =~ ^0?\.[0-9]+$ ]] && awk -v q="$cq" 'BEGIN { exit !(q > 0 && q < 1) }' ||
			{ _net_die "--congested-q must be a decimal in (0, 1) ('$cq')"; return 1; }
		((ncong >= 1 && ncong < paths)) || { _net_die "--congested-q needs 1 <= --congested < --paths"; return 1; }
	fi
	[[ $cce == [01] ]] || { _net_die "NET_CONGESTED_CE must be 0 or 1"; return 1; }
	[[ -z $ahops || $ahops =~ ^([0-9]|[1-5][0-9]|6[0-2])(,([0-9]|[1-5][0-9]|6[0-2]))*$ ]] ||
		{ _net_die "--ack-hops must be a list of 0..62 ('$ahops')"; return 1; }
	[[ -n $NET_PFX ]] && net_cleanup
	# a fresh topology is a fresh fabric: no min RTT, line rate or RTT_ref
	# that an earlier test's paths left in dcc_lib (an entry lives
	# tcp_min_rtt_wlen, 300 s: a 2 ms path's flow once set OSCAR's shared
	# target for the 10 and 20 ms paths of the next test)
	dcc_shared_reset

	# per-sender delays, default queue limit and burst: one awk for all
	local L
	mapfile -t L < <(awk -v rtt="$rtt" -v fwd="$fwd" -v n="$senders" -v rate="$rate" \
		-v m=$NET_MTU_WIRE -v lpk="$lpk" -v lby="$lby" -v burst="$burst" 'BEGIN {
		nr = split(rtt, R, ","); nf = (fwd == "" ? 0 : split(fwd, F, ",")); max = 0; bad = 0
		for (i = 1; i <= n; i++) {
			r = R[i <= nr ? i : nr] + 0; f = (nf ? F[i <= nf ? i : nf] + 0 : r / 2)
			if (f > r || f < 0) bad = 1
			sp = (i > 1 ? " " : ""); rl = rl sp r; fl = fl sp f; vl = vl sp (r - f)
			if (r > max) max = r }
		if (lpk == "" && lby == "") { b = int(rate * 1e6 * max / 1e3 / 8 / m + 0.999); lpk = (b < 20 ? 20 : b) }
		if (burst == "") { burst = int(rate * 1e6 / 8 / 1000); if (burst < 2 * m) burst = 2 * m }
		print bad; print rl; print fl; print vl; print max; print lpk; print burst }')
	[[ ${L[0]} == 0 ]] || { _net_die "a forward delay is larger than its RTT ($fwd > $rtt)"; return 1; }
	read -r -a NET_RTT_LIST <<<"${L[1]}"
	read -r -a NET_FWD_LIST <<<"${L[2]}"
	read -r -a NET_REV_LIST <<<"${L[3]}"
	[[ -z $lby ]] && lpk=${L[5]}
	burst=${L[6]}

	NET_SENDERS=$senders NET_RATE_MBIT=$rate NET_RTT_MS=$rtt NET_FWD_MS=$fwd
	NET_ECN=$ecn NET_ECN_K_BYTES=$k NET_SHAPER=$shaper NET_OFFLOADS=$offl
	NET_PERIOD_MS=$period NET_LIMIT_PKTS=$lpk NET_LIMIT_BYTES=$lby NET_BURST_BYTES=$burst
	[[ -n $cong_ms ]] || cong_ms=${L[4]}
	NET_PATHS=$paths NET_CONGESTED=$ncong NET_CONGESTED_MS=$cong_ms
	NET_CONGESTED_Q=$cq NET_CONGESTED_CE=$cce
	NET_STRIP_ECN_SYN=$strip NET_REORDER_TOL=$reord NET_ACK_HOPS=$ahops

	NET_PFX="dcc$$$((RANDOM % 1000))-"
	NET_NS_R=${NET_PFX}r
	NET_NS_D=${NET_PFX}d
	NET_NS_S=()
	local i
	for ((i = 0; i < senders; i++)); do NET_NS_S+=("${NET_PFX}s$i"); done
	NET_DIR=${dir:-$DCC_OUT/net/${DCC_TEST_NAME}-${NET_PFX%-}}
	mkdir -p "$NET_DIR"
	dcc_on_exit net_cleanup

	local need_ifb=0
	for ((i = 0; i < senders; i++)); do
		[[ ${NET_FWD_LIST[i]} != 0 ]] && need_ifb=1
		((paths > 1)) && need_ifb=1
	done
	# modules: best effort (built in, or absent on a host that can't load any)
	modprobe -a -q veth sch_htb sch_tbf sch_red sch_netem sch_ingress act_mirred \
		cls_matchall tcp_diag inet_diag 2>/dev/null
	((paths > 1)) && modprobe -a -q sch_prio cls_basic em_meta 2>/dev/null
	((paths > 1 && cce)) && modprobe -a -q em_u32 act_pedit act_csum 2>/dev/null
	((strip)) && modprobe -a -q act_pedit act_csum cls_u32 2>/dev/null
	[[ -n $ahops ]] && modprobe -a -q sch_ingress act_pedit act_csum cls_u32 2>/dev/null
	if ((need_ifb)) && [[ ! -d /sys/module/ifb ]]; then
		modprobe -q ifb numifbs=0 2>/dev/null
	fi

	# namespaces and veth pairs: one ip batch
	{
		echo "netns add $NET_NS_R"
		echo "netns add $NET_NS_D"
		for ((i = 0; i < senders; i++)); do echo "netns add ${NET_NS_S[i]}"; done
		echo "link add eth0 netns $NET_NS_D type veth peer name d0 netns $NET_NS_R"
		for ((i = 0; i < senders; i++)); do
			echo "link add eth0 netns ${NET_NS_S[i]} type veth peer name s$i netns $NET_NS_R"
		done
	} | ip -b - || { _net_die "creating namespaces/veths failed"; return 1; }

	# per-namespace configuration: addresses (ip batch), sysctls, offloads, rps
	local cfg='
		batch=$1 router=$2 ecn=$3 offl=$4 rps=$5; shift 5
		ip -b - <<<"$batch" || exit 1
		echo 1 >/proc/sys/net/ipv4/tcp_no_metrics_save
		if [[ $router == 1 ]]; then
			echo 1 >/proc/sys/net/ipv4/ip_forward
		else
			echo "$ecn" >/proc/sys/net/ipv4/tcp_ecn
		fi
		for d in "$@"; do
			[[ $offl == 1 ]] || ethtool -K "$d" tso off gso off gro off 2>/dev/null
			for q in /sys/class/net/$d/queues/rx-*/rps_cpus; do
				[[ -w $q ]] && echo "$rps" >"$q"
			done
		done
		exit 0'
	local ecnv=2 batch devs rps_r=1 rps_e=1
	((ecn)) && ecnv=1
	# receive steering: each veth's rx pinned to one CPU keeps every hop FIFO
	# (veth reorders otherwise).  NET_RPS=ROUTER_MASK,ENDHOST_MASK overrides
	# the default 1,1 (e.g. 2,1 puts forwarding on CPU1: not measurably
	# better under TCG so far).
	if [[ ${NET_RPS:-} =~ ^[0-9a-f]+,[0-9a-f]+$ ]]; then
		rps_r=${NET_RPS%,*} rps_e=${NET_RPS#*,}
	fi
	batch="link set lo up"$'\n'"addr add 10.2.0.1/24 dev d0"$'\n'"link set d0 up"
	devs=(d0)
	for ((i = 0; i < senders; i++)); do
		batch+=$'\n'"addr add 10.1.$i.1/24 dev s$i"$'\n'"link set s$i up"
		[[ ${NET_FWD_LIST[i]} != 0 || $paths -gt 1 ]] && batch+=$'\n'"link add f$i type ifb"$'\n'"link set f$i up"
		devs+=("s$i")
	done
	ip netns exec "$NET_NS_R" bash -c "$cfg" _ "$batch" 1 "$ecnv" "$offl" "$rps_r" "${devs[@]}" ||
		{ _net_die "router setup failed (ifb missing? try --fwd-ms 0)"; return 1; }
	batch="link set lo up"$'\n'"addr add $NET_DST_IP/24 dev eth0"$'\n'"link set eth0 up"$'\n'"route add default via 10.2.0.1"
	ip netns exec "$NET_NS_D" bash -c "$cfg" _ "$batch" 0 "$ecnv" "$offl" "$rps_e" eth0 ||
		{ _net_die "receiver setup failed"; return 1; }
	for ((i = 0; i < senders; i++)); do
		batch="link set lo up"$'\n'"addr add 10.1.$i.2/24 dev eth0"$'\n'"link set eth0 up"$'\n'"route add default via 10.1.$i.1"
		ip netns exec "${NET_NS_S[i]}" bash -c "$cfg" _ "$batch" 0 "$ecnv" "$offl" "$rps_e" eth0 ||
			{ _net_die "sender $i setup failed"; return 1; }
		if ((reord)); then
			ip netns exec "${NET_NS_S[i]}" sysctl -qw net.ipv4.tcp_recovery=0 \
				net.ipv4.tcp_reordering="$reord" ||
				{ _net_die "sender $i: reordering sysctls failed"; return 1; }
		fi
	done

	# qdiscs: delays (never on d0) and the bottleneck on d0, one tc batch
	local tcb=() f v mirror mprio=1
	# --strip-ecn-syn: the SYN filter takes prio 1, the forward-delay
	# matchall prio 2 (unchanged at prio 1 otherwise)
	((strip)) && mprio=2
	for ((i = 0; i < senders; i++)); do
		f=${NET_FWD_LIST[i]} v=${NET_REV_LIST[i]}
		mirror=0
		[[ $v != 0 ]] && tcb+=("qdisc add dev s$i root handle 1: netem delay ${v}ms limit 100000")
		if ((paths > 1)); then
			_net_spray_tc "f$i" "$f" "$paths" "$ncong" "$cong_ms" "$cq" "$cce"
			mirror=1
		elif [[ $f != 0 ]]; then
			tcb+=("qdisc add dev f$i root handle 1: netem delay ${f}ms limit 100000")
			mirror=1
		fi
		((mirror || strip)) && tcb+=("qdisc add dev s$i handle ffff: ingress")
		((strip)) && tcb+=("filter add dev s$i parent ffff: protocol ip prio 1 u32 match u8 0x45 0xff at 0 match ip protocol 6 0xff match u8 0x02 0x02 at 33 action pedit munge offset 33 u8 set 0 retain 0xc0 pipe action csum tcp continue")
		((mirror)) && tcb+=("filter add dev s$i parent ffff: protocol all prio $mprio matchall action mirred egress redirect dev f$i")
	done
	local leaf limb
	if [[ -n $lby ]]; then limb=$lby; else limb=$((lpk * NET_MTU_WIRE)); fi
	if [[ -n $k ]]; then
		((limb <= k + NET_MTU_WIRE)) && limb=$((k + 2 * NET_MTU_WIRE))
		leaf="red limit $limb min $k max $((k + 1)) avpkt $NET_MTU_WIRE burst $(((k + NET_MTU_WIRE - 1) / NET_MTU_WIRE)) probability 1.0 bandwidth ${rate}mbit ecn nodrop"
	elif [[ -n $lby ]]; then
		leaf="bfifo limit $lby"
	else
		leaf="pfifo limit $lpk"
	fi
	if [[ $shaper == netem ]]; then
		[[ -n $lby ]] && lpk=$(((lby + NET_MTU_WIRE - 1) / NET_MTU_WIRE))
		leaf="netem rate ${rate}mbit limit $lpk"
		tcb+=("qdisc add dev d0 root handle 10: $leaf")
	elif [[ $shaper == htb ]]; then
		tcb+=("qdisc add dev d0 root handle 1: htb default 1 direct_qlen 1000"
			"class add dev d0 parent 1: classid 1:1 htb rate ${rate}mbit ceil ${rate}mbit burst $burst cburst $burst quantum $NET_MTU_WIRE"
			"qdisc add dev d0 parent 1:1 handle 10: $leaf")
	else
		tcb+=("qdisc add dev d0 root handle 1: tbf rate ${rate}mbit burst $burst limit $((limb + burst))"
			"qdisc replace dev d0 parent 1:1 handle 10: $leaf")
	fi
	NET_LEAF=$leaf
	printf '%s\n' "${tcb[@]}" | tc -n "$NET_NS_R" -b - ||
		{ _net_die "tc setup failed"; printf '#   %s\n' "${tcb[@]}" >&2; return 1; }

	# --ack-hops: the receiver's egress ages what it sends to each sender
	if [[ -n $ahops ]]; then
		local hl h
		IFS=, read -r -a hl <<<"$ahops"
		tcb=("qdisc add dev eth0 clsact")
		for ((i = 0; i < senders; i++)); do
			h=${hl[i < ${#hl[@]} ? i : ${#hl[@]} - 1]}
			((h)) && tcb+=("filter add dev eth0 egress protocol ip prio 1 u32 match ip dst 10.1.$i.0/24 action pedit ex munge ip ttl add $((256 - h)) pipe action csum ip")
		done
		printf '%s\n' "${tcb[@]}" | tc -n "$NET_NS_D" -b - ||
			{ _net_die "--ack-hops: tc setup failed"; printf '#   %s\n' "${tcb[@]}" >&2; return 1; }
	fi

	# reachability (ping is in the guest; not on every host)
	if command -v ping >/dev/null; then
		for ((i = 0; i < senders; i += (senders > 4 ? senders - 1 : 1))); do
			ip netns exec "${NET_NS_S[i]}" ping -c 1 -W 3 "$NET_DST_IP" >/dev/null 2>&1 ||
				{ _net_die "sender $i cannot reach the receiver"; return 1; }
		done
	fi
	local spray=
	((paths > 1)) && spray="; spraying over $paths paths, $ncong congested (+$cong_ms ms${cq:+, q = $cq}$( ((cce)) && echo ", CE-marking"))"
	log_info "net: $senders sender(s) -> router -> receiver; bottleneck $shaper $rate Mbit/s (burst $burst B), queue: $leaf; rtt $rtt ms (fwd ${NET_FWD_LIST[*]} ms)$spray${ahops:+; +$ahops hops on the ACK paths}; ecn=$ecn$( ((strip)) && echo " (router strips ECE/CWR from SYNs: ECN never negotiated)"); offloads=$([[ $offl == 1 ]] && echo on || echo off); dir $NET_DIR"
	return 0
}

# _net_spray_tc DEV FWD_MS P K EXTRA_MS [Q [CE]]: append to tcb (the caller's
# tc batch) the P-path spraying qdiscs of ifb DEV (see "Spraying" above).
# Path b takes the share p_b of the packets: Q/K for the K congested ones,
# (1 - Q)/(P - K) for the others (Q empty: 1/P each).  Filter b takes what
# is still unclassified with probability p_b / (what is left), so the
# chain gives every path its share; the last path takes the rest (priomap).
# With CE, a congested path's filter is two filters on one draw each: one
# for ECT(0) packets (TOS & 3 == 2) that also sets CE and fixes the IP
# checksum (pedit, csum), one for the rest; a packet matches the ECN test
# of exactly one of them, so its chance to take the path is unchanged.
_net_spray_tc() {
	local dev=$1 fwd=$2 p=$3 k=$4 extra=$5 q=${6:-} ce=${7:-0} b d pm='' thr
	local ect='u32(u8 0x02 0x03 at 1)'
	local mark='action pedit ex munge ip dsfield set 0x03 retain 0x03 pipe action csum ip'
	local -a T
	for ((b = 0; b < 16; b++)); do pm+=" $((p - 1))"; done
	mapfile -t T < <(awk -v p="$p" -v k="$k" -v q="$q" 'BEGIN {
		left = 1
		for (b = 1; b < p; b++) {
			pb = (q == "" ? 1 / p : (b <= k ? q / k : (1 - q) / (p - k)))
			t = pb / left; if (t > 1) t = 1
			printf "%d\n", t * 4294967295
			left -= pb
		} }')
	tcb+=("qdisc add dev $dev root handle 1: prio bands $p priomap$pm")
	for ((b = 1; b <= p; b++)); do
		d=$fwd
		((b <= k)) && d=$(awk -v a="$fwd" -v x="$extra" 'BEGIN { print a + x }')
		tcb+=("qdisc add dev $dev parent 1:$b handle $((b + 1))0: netem delay ${d}ms limit 100000")
		((b < p)) || continue
		thr=${T[b - 1]}
		if ((ce && b <= k)); then
			tcb+=("filter add dev $dev parent 1: protocol ip prio $((2 * b - 1)) basic match '$ect and meta(random mask 0xffffffff lt $thr)' flowid 1:$b $mark")
			tcb+=("filter add dev $dev parent 1: protocol ip prio $((2 * b)) basic match 'not $ect and meta(random mask 0xffffffff lt $thr)' flowid 1:$b")
		else
			tcb+=("filter add dev $dev parent 1: protocol ip prio $((2 * b)) basic match 'meta(random mask 0xffffffff lt $thr)' flowid 1:$b")
		fi
	done
	# CE on the last path (no filter of its own: the priomap sends the
	# rest there) when every path is congested
	if ((ce && k >= p)); then
		tcb+=("filter add dev $dev parent 1: protocol ip prio $((2 * p - 1)) basic match '$ect' flowid 1:$p $mark")
	fi
}

net_run_single() { # CC DUR SKIP
	local st
	net_run_flows --cc "$1" --n 1 --duration "$2" || log_warn "the flow reported a failure"
	st=$(awk -F'\t' '{ print $5 }' "$NET_RUN/flows.tsv")
	net_summarize --window "$(fcalc "$st + $3")" "$(fcalc "$st + $2")"
}

net_quickack() {
	local r
	ip -n "$NET_NS_D" route show | grep -v '^local' | while read -r r; do
		# shellcheck disable=SC2086
		ip -n "$NET_NS_D" route change $r quickack 1 || return 1
	done
}

# net_tcp_counters NAME...: each named nstat counter (TcpRetransSegs,
# TcpExtTCPLossProbes, ...) summed over the sender namespaces, into
# NET_TCP_CNT[NAME]; NET_TCP_CNT_LINE lists them as "NAME=V" words for a
# log line.  Absolute values: each namespace's counters start at zero, so
# they cover the whole run.  Call it directly, not in $(...).
net_tcp_counters() {
	local ns c v
	declare -gA NET_TCP_CNT=()
	NET_TCP_CNT_LINE=''
	for c in "$@"; do NET_TCP_CNT[$c]=0; done
	for ns in "${NET_NS_S[@]}"; do
		while read -r c v _; do
			[[ -n ${NET_TCP_CNT[$c]+x} ]] && NET_TCP_CNT[$c]=$((NET_TCP_CNT[$c] + v))
		done < <(ip netns exec "$ns" nstat -asz "$@" 2>/dev/null)
	done
	for c in "$@"; do NET_TCP_CNT_LINE+="$c=${NET_TCP_CNT[$c]} "; done
	NET_TCP_CNT_LINE=${NET_TCP_CNT_LINE% }
}

net_qdisc_stats() { tc -n "$NET_NS_R" -s qdisc show dev "$NET_BN_DEV"; }

# kill every process in our namespaces (they are all ours)
_net_kill_ns() {
	local sig=$1 pids
	shift
	(($#)) || return 0
	pids=$(printf 'netns pids %s\n' "$@" | ip -b - 2>/dev/null)
	# shellcheck disable=SC2086
	[[ -n ${pids//[[:space:]]/} ]] && kill "$sig" $pids 2>/dev/null
	return 0
}

net_cleanup() {
	[[ -n $NET_PFX ]] || return 0
	local ns all=() p
	if [[ -n $NET_SAMPLER_PID ]]; then
		kill "$NET_SAMPLER_PID" 2>/dev/null
		wait "$NET_SAMPLER_PID" 2>/dev/null
		NET_SAMPLER_PID=
	fi
	for ns in "${NET_NS_S[@]}" "$NET_NS_R" "$NET_NS_D"; do
		[[ -e /run/netns/$ns ]] && all+=("$ns")
	done
	_net_kill_ns -TERM "${all[@]}"
	for p in "${NET_LAUNCHERS[@]}" "${NET_SERVER_PIDS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	NET_LAUNCHERS=() NET_SERVER_PIDS=()
	_net_kill_ns -KILL "${all[@]}"
	((${#all[@]})) && printf 'netns del %s\n' "${all[@]}" | ip -b - 2>/dev/null
	NET_PFX=
	return 0
}

# ---- helpers ------------------------------------------------------------------

net_cc_load() {
	local cc=$1 avail
	avail=" $(</proc/sys/net/ipv4/tcp_available_congestion_control) "
	[[ $avail == *" $cc "* ]] && return 0
	modprobe -q "tcp_$cc" 2>/dev/null
	avail=" $(</proc/sys/net/ipv4/tcp_available_congestion_control) "
	[[ $avail == *" $cc "* ]]
}

net_ping_rtt() {
	local count=20 s=0
	while (($#)); do
		case $1 in
		--count) count=$2; shift ;;
		--from-sender) s=$2; shift ;;
		*) _net_die "net_ping_rtt: unknown option $1"; return 1 ;;
		esac
		shift
	done
	ip netns exec "${NET_NS_S[s]}" ping -n -c $((count + 1)) -i 0.05 "$NET_DST_IP" 2>/dev/null |
		awk '/time=/ { n++; if (n == 1) next; sub(/.*time=/, ""); s += $1; c++ }
		     END { if (c) printf "%.3f\n", s / c; else { print "nan"; exit 1 } }'
}

# ---- runs ----------------------------------------------------------------------

net_new_run() {
	NET_RUN_SEQ=$((NET_RUN_SEQ + 1))
	NET_RUN=${1:-$NET_DIR/run$NET_RUN_SEQ}
	mkdir -p "$NET_RUN"
	rm -f "$NET_RUN"/flow*.json "$NET_RUN"/raw_*.txt "$NET_RUN"/flows.* "$NET_RUN"/queue.csv \
		"$NET_RUN"/iperf.csv "$NET_RUN"/summary* "$NET_RUN"/starts-*.txt "$NET_RUN"/.servers_ready*
	: >"$NET_RUN/flows.tsv"
	NET_T0=$EPOCHREALTIME
	echo "$NET_T0" >"$NET_RUN/t0"
	{
		echo "rate_mbit=$NET_RATE_MBIT"
		echo "rtt_ms=$NET_RTT_MS"
		echo "rtt_list=${NET_RTT_LIST[*]}"
		echo "fwd_list=${NET_FWD_LIST[*]}"
		echo "senders=$NET_SENDERS"
		echo "limit_pkts=$NET_LIMIT_PKTS"
		echo "limit_bytes=$NET_LIMIT_BYTES"
		echo "ecn=$NET_ECN"
		echo "ecn_k_bytes=$NET_ECN_K_BYTES"
		echo "strip_ecn_syn=$NET_STRIP_ECN_SYN"
		echo "ack_hops=$NET_ACK_HOPS"
		echo "reorder_tol=$NET_REORDER_TOL"
		echo "shaper=$NET_SHAPER"
		echo "burst_bytes=$NET_BURST_BYTES"
		echo "leaf=$NET_LEAF"
		echo "offloads=$NET_OFFLOADS"
		echo "paths=$NET_PATHS"
		echo "congested=$NET_CONGESTED"
		echo "congested_ms=$NET_CONGESTED_MS"
		echo "congested_q=$NET_CONGESTED_Q"
		echo "congested_ce=$NET_CONGESTED_CE"
		echo "period_ms=$NET_PERIOD_MS"
		echo "ss_max_duty=${NET_SS_MAX_DUTY:-0.2}"
	} >"$NET_RUN/net.conf"
	NET_NFLOWS=0 NET_LAUNCHERS=() NET_SERVER_PIDS=() NET_RUN_END_US=0 NET_MAX_DUR_US=0
	NET_RUN_OPEN=1
}

# The sampler (a background subshell).  tc runs once, in batch mode, fed one
# "qdisc show" per period through a coprocess: no exec per period.  ss has no
# batch mode, so it is one exec per sender netns; when that costs more than
# NET_SS_MAX_DUTY of the period (it takes 40-150 ms under TCG), ss runs only
# every k-th period.  Raw output only; parsed when the sampler stops.
_net_sampler_loop() {
	local period_us=$1 stop=$2 duty_pm=$3
	local sfd next now d t ns line a cost ss_every=1 ss_cnt=0
	exec {sfd}<> <(:)
	exec 3>>"$NET_RUN/raw_ss.txt" 4>>"$NET_RUN/raw_tc.txt"
	coproc NET_TCP { exec tc -n "$NET_NS_R" -s -j -b - 2>/dev/null; }
	local tin=${NET_TCP[1]} tout=${NET_TCP[0]}
	trap 'kill $NET_TCP_PID 2>/dev/null; exit 0' TERM
	next=${EPOCHREALTIME/./}
	while [[ ! -e $stop ]]; do
		t=$EPOCHREALTIME
		echo "qdisc show dev $NET_BN_DEV" >&"$tin"
		if read -r -t 2 -u "$tout" line; then
			printf 'T %s\n%s\n' "$t" "$line" >&4
		fi
		if ((ss_cnt == 0)); then
			t=$EPOCHREALTIME
			a=${t/./}
			echo "T $t" >&3
			for ns in "${NET_NS_S[@]}"; do
				ss -N "$ns" -tinHO state established dst "$NET_DST_IP" >&3 2>/dev/null
			done
			t=${EPOCHREALTIME}
			cost=$((${t/./} - a))
			ss_every=$(((cost * 1000 + duty_pm * period_us - 1) / (duty_pm * period_us)))
			((ss_every < 1)) && ss_every=1
		fi
		ss_cnt=$(((ss_cnt + 1) % ss_every))
		next=$((next + period_us))
		t=${EPOCHREALTIME}
		now=${t/./}
		d=$((next - now))
		if ((d <= 0)); then
			next=$now
			continue
		fi
		printf -v t '%d.%06d' $((d / 1000000)) $((d % 1000000))
		read -r -t "$t" -u "$sfd" _
	done
	kill "$NET_TCP_PID" 2>/dev/null
}

net_sampler_start() {
	local p=${NET_PERIOD_MS:-100} duty
	[[ ${1:-} == --period-ms ]] && p=$2
	[[ -n $NET_SAMPLER_PID ]] && return 0
	_net_us duty "${NET_SS_MAX_DUTY:-0.2}"
	rm -f "$NET_RUN/.sampler_stop"
	_net_sampler_loop $((p * 1000)) "$NET_RUN/.sampler_stop" $((duty / 1000)) &
	NET_SAMPLER_PID=$!
}

net_sampler_stop() {
	[[ -n $NET_SAMPLER_PID ]] || return 0
	touch "$NET_RUN/.sampler_stop"
	local i
	for ((i = 0; i < 100; i++)); do
		kill -0 "$NET_SAMPLER_PID" 2>/dev/null || break
		_net_sleep 0.05
	done
	kill "$NET_SAMPLER_PID" 2>/dev/null
	wait "$NET_SAMPLER_PID" 2>/dev/null
	NET_SAMPLER_PID=
	rm -f "$NET_RUN/.sampler_stop"
	_net_write_csvs "$NET_RUN"
}

_net_write_csvs() {
	local run=$1 t0
	t0=$(<"$run/t0")
	# flows.csv: per server port, the socket with the most bytes_acked (the data
	# connection; iperf3's control connection shares the port).
	awk -v t0="$t0" '
	function rate(v,   x) {
		x = v + 0
		if (v ~ /Gbps/) x *= 1e9; else if (v ~ /Mbps/) x *= 1e6; else if (v ~ /Kbps/) x *= 1e3
		return sprintf("%.0f", x)
	}
	FNR == 1 { pass++ }
	pass == 1 { fl[$2] = $1; fcc[$2] = $3; next }
	$1 == "T" { t = $2 - t0; next }
	{
		la = ""; pa = ""
		for (i = 1; i <= NF && pa == ""; i++)
			if ($i ~ /:[0-9]+$/) { if (la == "") la = $i; else pa = $i }
		if (pa == "") next
		sp = la; sub(/.*:/, "", sp); dp = pa; sub(/.*:/, "", dp)
		if (!(dp in fl)) next
		acked = 0
		for (j = i; j <= NF; j++) if ($j ~ /^bytes_acked:/) { acked = substr($j, 13) + 0; break }
		if (pass == 2) {
			if (!(dp in best) || acked > bestacked[dp]) { best[dp] = sp; bestacked[dp] = acked }
			next
		}
		if (best[dp] != sp) next
		cc = ""; cwnd = ""; rtt = ""; pr = ""; dr = ""; re = 0; mr = ""; un = 0; prev = ""
		for (j = i; j <= NF; j++) {
			f = $j
			if (f ~ /^cwnd:/) cwnd = substr(f, 6)
			else if (f ~ /^rtt:/) { split(substr(f, 5), a, "/"); rtt = a[1] }
			else if (f ~ /^minrtt:/) mr = substr(f, 8)
			else if (f ~ /^retrans:/) { split(substr(f, 9), a, "/"); re = a[2] + 0 }
			else if (f ~ /^unacked:/) un = substr(f, 9)
			else if (f == "pacing_rate") pr = rate($(j + 1))
			else if (f == "delivery_rate") dr = rate($(j + 1))
			else if (cc == "" && (f ~ /^wscale:/ || f ~ /^rto:/)) cc = prev
			prev = f
		}
		if (cc == "" || cc ~ /:/ || cc ~ /^(ts|sack|ecn|ecnseen|fastopen)$/) cc = fcc[dp]
		printf "%.3f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", t, fl[dp], cc, cwnd, rtt, pr, dr, acked, re, mr, un, dp
	}' "$run/flows.tsv" "$run/raw_ss.txt" "$run/raw_ss.txt" |
		{
			echo "t,flow,cc,cwnd,rtt_ms,pacing_rate_bps,delivery_rate_bps,bytes_acked,retrans,minrtt_ms,unacked,port"
			sort -t, -k2,2n -k1,1g
		} >"$run/flows.csv"

	# queue.csv: the bottleneck's leaf qdisc, handle 10:
	awk -v t0="$t0" '
	function num(s, key,   m) {
		if (match(s, "\"" key "\":[0-9]+")) { m = substr(s, RSTART, RLENGTH); sub(/.*:/, "", m); return m }
		return ""
	}
	BEGIN { print "t,backlog_bytes,backlog_pkts,drops,marks,sent_bytes,sent_pkts" }
	$1 == "T" { t = $2 - t0; next }
	/"handle":"10:"/ {
		s = $0; i = index(s, "\"handle\":\"10:\""); s = substr(s, i)
		j = index(s, "{\"kind\""); if (j > 0) s = substr(s, 1, j - 1)
		mk = num(s, "marked"); if (mk == "") mk = num(s, "ecn_mark"); if (mk == "") mk = num(s, "ce_mark"); if (mk == "") mk = 0
		printf "%.3f,%s,%s,%s,%s,%s,%s\n", t, num(s, "backlog"), num(s, "qlen"), num(s, "drops"), mk, num(s, "bytes"), num(s, "packets")
	}' "$run/raw_tc.txt" >"$run/queue.csv"
}

# iperf.csv from the clients' 100 ms TCP_INFO intervals (free: no sampling)
_net_write_iperf_csv() {
	local run=$1 files=() fid
	for ((fid = 0; fid < NET_NFLOWS; fid++)); do
		[[ -s $run/flow$fid.json ]] && files+=("$run/flow$fid.json")
	done
	{
		echo "t,flow,bytes,throughput_bps,cwnd,rtt_ms,rttvar_ms,retrans,snd_wnd"
		((${#files[@]})) || return 0
		jq -r '(input_filename | capture("flow(?<f>[0-9]+)\\.json$").f) as $f |
			.intervals[]?.streams[0]? | select(. != null) |
			[$f, .end, .bytes, .bits_per_second, (.snd_cwnd // ""), ((.rtt // 0) / 1000),
			 ((.rttvar // 0) / 1000), (.retransmits // 0), (.snd_wnd // "")] | @tsv' \
			"${files[@]}" 2>/dev/null |
			awk -F'\t' 'NR == FNR { st[$1] = $5; next }
				{ printf "%.3f,%s,%s,%.0f,%s,%.3f,%.3f,%s,%s\n", st[$1] + $2, $1, $3, $4, $5, $6, $7, $8, $9 }' \
				"$run/flows.tsv" - | sort -t, -k2,2n -k1,1g
	} >"$run/iperf.csv"
}

net_start_flows() {
	local cc='' n=1 dur=10 stagger=0 pbase='' from='' interval='' xargs=''
	while (($#)); do
		case $1 in
		--cc) cc=$2; shift ;;
		--n) n=$2; shift ;;
		--duration) dur=$2; shift ;;
		--stagger) stagger=$2; shift ;;
		--port-base) pbase=$2; shift ;;
		--from-sender) from=$2; shift ;;
		--interval) interval=$2; shift ;;
		--iperf-args) xargs=$2; shift ;;
		*) _net_die "net_start_flows: unknown option $1"; return 1 ;;
		esac
		shift
	done
	[[ -n $cc ]] || { _net_die "net_start_flows: --cc NAME required"; return 1; }
	if [[ -z $interval ]]; then
		interval=0.1
		((n > 4)) && interval=0.2
		((n > 16)) && interval=0.5
	fi
	[[ -n $NET_PFX ]] || { _net_die "net_start_flows: net_setup first"; return 1; }
	((NET_RUN_OPEN)) || net_new_run
	net_cc_load "$cc" || log_warn "congestion control $cc is not available"
	net_sampler_start

	local k fid port snd first=$NET_NFLOWS ports=() srv=() stag_us dur_us now_us start_us rel t0_us
	_net_us stag_us "$stagger"
	_net_us dur_us "$dur"
	t0_us=${NET_T0/./}

	for ((k = 0; k < n; k++)); do
		fid=$((first + k))
		if [[ -n $pbase ]]; then port=$((pbase + k)); else port=$((5201 + fid)); fi
		ports+=("$port")
		srv+=("$fid" "$port")
	done
	NET_NFLOWS=$((NET_NFLOWS + n))

	# servers: one launcher in the receiver netns; it signals readiness with a
	# file once /proc/net/tcp{,6} shows every port listening
	local ready=$NET_RUN/.servers_ready.$first
	ip netns exec "$NET_NS_D" bash -c '
		run=$1 intv=$2 ready=$3; shift 3
		declare -A want=()
		while (($#)); do
			iperf3 -s -1 -p "$2" -i "$intv" -J --logfile "$run/flow$1.server.json" &
			printf -v h "%04X" "$2"; want[$h]=1
			shift 2
		done
		exec {sfd}<> <(:)
		for ((i = 0; i < 600; i++)); do
			c=0
			for f in /proc/net/tcp6 /proc/net/tcp; do
				while read -r _ l _ st _; do
					[[ $st == 0A && -n ${want[${l##*:}]:-} ]] && c=$((c + 1))
				done <"$f"
			done
			((c >= ${#want[@]})) && { : >"$ready"; break; }
			read -r -t 0.05 -u $sfd _
		done
		wait' _ "$NET_RUN" "$interval" "$ready" "${srv[@]}" &
	NET_SERVER_PIDS+=($!)
	local i
	for ((i = 0; i < 640; i++)); do
		[[ -e $ready ]] && break
		_net_sleep 0.05
	done
	[[ -e $ready ]] || { _net_die "iperf3 servers did not come up"; return 1; }

	# the plan: flow k of this call starts at (servers ready) + 0.2 s + k*stagger
	local -A plan=()
	now_us=${EPOCHREALTIME/./}
	now_us=$((now_us + 200000))
	for ((k = 0; k < n; k++)); do
		fid=$((first + k))
		port=${ports[k]}
		if [[ -n $from ]]; then snd=$from; else snd=$((fid % NET_SENDERS)); fi
		start_us=$((now_us + k * stag_us))
		plan[$snd]+="$fid $port $start_us"$'\n'
		_net_s rel $((start_us - t0_us))
		printf '%s\t%s\t%s\t%s\t%s\n' "$fid" "$port" "$cc" "$snd" "$rel" >>"$NET_RUN/flows.tsv"
		((start_us + dur_us > NET_RUN_END_US)) && NET_RUN_END_US=$((start_us + dur_us))
	done
	((dur_us > NET_MAX_DUR_US)) && NET_MAX_DUR_US=$dur_us

	# clients: one launcher per sender netns; each flow at its start time
	for snd in "${!plan[@]}"; do
		ip netns exec "${NET_NS_S[snd]}" bash -c '
			run=$1 dst=$2 dur=$3 cc=$4 intv=$5 xargs=$6 plan=$7 snd=$8
			exec {sfd}<> <(:)
			while read -r fid port start; do
				[[ -n $fid ]] || continue
				now=${EPOCHREALTIME/./}
				d=$((start - now))
				if ((d > 0)); then
					printf -v s "%d.%06d" $((d / 1000000)) $((d % 1000000))
					read -r -t "$s" -u $sfd _
				fi
				echo "$fid ${EPOCHREALTIME/./}" >>"$run/starts-$snd.txt"
				# shellcheck disable=SC2086
				iperf3 -c "$dst" -p "$port" -t "$dur" -C "$cc" -i "$intv" \
					--connect-timeout 5000 -J --logfile "$run/flow$fid.json" $xargs &
			done <<<"$plan"
			wait' _ "$NET_RUN" "$NET_DST_IP" "$dur" "$cc" "$interval" "$xargs" "${plan[$snd]}" "$snd" &
		NET_LAUNCHERS+=($!)
	done
	log_debug "started $n $cc flow(s), ports ${ports[*]}"
	return 0
}

net_wait_flows() {
	local timeout=''
	[[ ${1:-} == --timeout ]] && timeout=$2
	((NET_RUN_OPEN)) || { _net_die "net_wait_flows: no run"; return 1; }
	local deadline now p alive rc=0 tus
	if [[ -n $timeout ]]; then
		_net_us tus "$timeout"
		deadline=$((${EPOCHREALTIME/./} + tus))
	else
		deadline=$((NET_RUN_END_US + 20000000))
	fi
	while :; do
		alive=0
		for p in "${NET_LAUNCHERS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
		((alive)) || break
		now=${EPOCHREALTIME/./}
		if ((now > deadline)) && [[ -z $timeout ]]; then
			# launches can lag far behind the plan under TCG: extend the
			# deadline to the last actual start + duration + 20 s
			local ls=0 _f _u
			while read -r _f _u; do ((_u > ls)) && ls=$_u; done < <(cat "$NET_RUN"/starts-*.txt 2>/dev/null)
			((ls + NET_MAX_DUR_US + 20000000 > deadline)) && deadline=$((ls + NET_MAX_DUR_US + 20000000))
		fi
		if ((now > deadline)); then
			log_warn "flows still running at the deadline; killing them"
			_net_kill_ns -TERM "${NET_NS_S[@]}"
			rc=1
			break
		fi
		_net_sleep 0.2
	done
	dcc_reap 20 "${NET_LAUNCHERS[@]}"
	# servers exit once their client is done; give them a moment
	local i
	for ((i = 0; i < 30; i++)); do
		alive=0
		for p in "${NET_SERVER_PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
		((alive)) || break
		_net_sleep 0.1
	done
	((alive)) && _net_kill_ns -TERM "$NET_NS_D"
	dcc_reap 10 "${NET_SERVER_PIDS[@]}"
	NET_LAUNCHERS=() NET_SERVER_PIDS=()
	net_sampler_stop
	NET_RUN_OPEN=0

	# actual start times (the launchers log them) replace the planned ones
	if compgen -G "$NET_RUN/starts-*.txt" >/dev/null; then
		local t0_us=${NET_T0/./} fid us rel line cc snd
		local -A act=()
		while read -r fid us; do
			_net_s rel $((us - t0_us))
			act[$fid]=$rel
		done < <(cat "$NET_RUN"/starts-*.txt)
		local out=
		while IFS=$'\t' read -r fid p cc snd rel; do
			out+="$fid"$'\t'"$p"$'\t'"$cc"$'\t'"$snd"$'\t'"${act[$fid]:-$rel}"$'\n'
		done <"$NET_RUN/flows.tsv"
		printf '%s' "$out" >"$NET_RUN/flows.tsv"
	fi
	_net_write_iperf_csv "$NET_RUN"

	# every flow produced JSON without "error"
	local fid f errs l
	errs=$(for ((fid = 0; fid < NET_NFLOWS; fid++)); do
		f=$NET_RUN/flow$fid.json
		[[ -s $f ]] || { echo "flow $fid: no output"; continue; }
		echo "$f"
	done | {
		files=() bad=()
		while read -r l; do
			if [[ $l == /* ]]; then files+=("$l"); else bad+=("$l"); fi
		done
		printf '%s\n' "${bad[@]}"
		((${#files[@]})) && jq -r 'select(has("error")) |
			(input_filename | capture("flow(?<f>[0-9]+)").f) as $f | "flow \($f): \(.error)"' \
			"${files[@]}" 2>&1
	})
	errs=$(sed '/^$/d' <<<"$errs")
	if [[ -n $errs ]]; then
		while read -r l; do log_warn "$l"; done <<<"$errs"
		rc=1
	fi
	return $rc
}

net_run_flows() { net_start_flows "$@" && net_wait_flows; }

# ---- summary ---------------------------------------------------------------------

net_get() {
	local dir=${2:-$NET_RUN} k v
	while IFS=$'\t' read -r k v; do
		[[ $k == "$1" ]] && { echo "$v"; return 0; }
	done <"$dir/summary.tsv"
	return 1
}

net_flow_get() {
	local dir=${3:-$NET_RUN} hdr row i
	{
		IFS=$'\t' read -r -a hdr
		while IFS=$'\t' read -r -a row; do
			[[ ${row[0]} == "$1" ]] || continue
			for i in "${!hdr[@]}"; do
				[[ ${hdr[i]} == "$2" ]] && { echo "${row[i]}"; return 0; }
			done
		done
	} <"$dir/summary_flows.tsv"
	return 1
}

net_summarize() {
	local t1='' t2='' dir=$NET_RUN
	while (($#)); do
		case $1 in
		--window) t1=$2 t2=$3; shift 2 ;;
		*) dir=$1 ;;
		esac
		shift
	done
	[[ -s $dir/flows.tsv ]] || { _net_die "net_summarize: no flows in $dir"; return 1; }
	local rate
	rate=$(sed -n 's/^rate_mbit=//p' "$dir/net.conf")

	# facts from all iperf3 JSON files in one jq run:
	#   F fid thr_bps retrans sender_cc duration error   (client)
	#   C|I fid start end bytes                          (client|server intervals)
	local files=() f tmp=$dir/.facts.tsv
	for f in "$dir"/flow*.json; do [[ -s $f ]] && files+=("$f"); done
	local jqp='(input_filename | capture("flow(?<f>[0-9]+)(?<s>\\.server)?\\.json$")) as $m |
		if $m.s then (.intervals[]?.sum | ["I", $m.f, .start, .end, .bytes] | @tsv)
		else (["F", $m.f, (.end.sum_received.bits_per_second // 0), (.end.sum_sent.retransmits // 0),
		       (.end.sender_tcp_congestion // "?"), (.start.test_start.duration // 0),
		       ((.error // "-") | gsub("[\t ]"; "_"))] | @tsv),
		     (.intervals[]?.sum | ["C", $m.f, .start, .end, .bytes] | @tsv)
		end'
	: >"$tmp"
	if ((${#files[@]})) && ! jq -r "$jqp" "${files[@]}" >"$tmp" 2>/dev/null; then
		: >"$tmp" # a broken file (killed iperf3): one at a time
		for f in "${files[@]}"; do jq -r "$jqp" "$f" >>"$tmp" 2>/dev/null; done
	fi
	[[ -s $dir/iperf.csv ]] || echo "t" >"$dir/iperf.csv"

	awk -F'\t' -v t1="$t1" -v t2="$t2" -v rate="$rate" -v dir="$dir" '
	# heap sort, ascending: no recursion (a recursive quicksort went n deep
	# on a run of equal backlog samples and hit the eval stack limit of mawk)
	function sift(A, r, n,   c, t) {
		while ((c = 2 * r) <= n) {
			if (c < n && A[c + 1] > A[c]) c++
			if (A[r] >= A[c]) return
			t = A[r]; A[r] = A[c]; A[c] = t; r = c
		}
	}
	function hsort(A, n,   i, t) {
		for (i = int(n / 2); i >= 1; i--) sift(A, i, n)
		for (i = n; i > 1; i--) { t = A[1]; A[1] = A[i]; A[i] = t; sift(A, 1, i - 1) }
	}
	function pct(A, n, p,   r) {
		if (n == 0) return "nan"
		hsort(A, n); r = int(p / 100 * n); if (r < p / 100 * n) r++; if (r < 1) r = 1
		return A[r]
	}
	function f3(x) { return (x == "nan" ? x : sprintf("%.3f", x)) }
	function setwin(   i, s, e, ls, fe, w) {
		if (t1 == "") {
			for (i = 1; i <= nf; i++) {
				s = st[fid[i]]; e = s + (dur[fid[i]] > 0 ? dur[fid[i]] : 0)
				if (i == 1 || s > ls) ls = s; if (i == 1 || e < fe) fe = e
			}
			w = fe - ls; t1 = ls + 2; if (t1 > ls + w / 3) t1 = ls + w / 3; t2 = fe
			t1 = sprintf("%.3f", t1); t2 = sprintf("%.3f", t2)
		}
		t1 += 0; t2 += 0; wset = 1
	}
	FNR == 1 { file++; if (file == 3) FS = "," }
	file == 1 { fid[++nf] = $1; port[$1] = $2; cc[$1] = $3; snd[$1] = $4; st[$1] = $5; next }   # flows.tsv
	file == 2 {                                                                                 # facts
		if ($1 == "F") { thr[$2] = $3; ret[$2] = $4; scc[$2] = $5; dur[$2] = $6; err[$2] = $7 }
		else if ($1 == "I") { ni++; iv_f[ni] = $2; iv_a[ni] = $3; iv_b[ni] = $4; iv_n[ni] = $5; hasI[$2] = 1 }
		else if ($1 == "C") { nc++; cv_f[nc] = $2; cv_a[nc] = $3; cv_b[nc] = $4; cv_n[nc] = $5 }
		next
	}
	!wset { setwin() }
	file == 3 && FNR > 1 {                                                                      # flows.csv
		if ($1 < t1 || $1 > t2) next
		f = $2
		if ($5 != "") { rn[f]++; R[f, rn[f]] = $5 + 0; nall++; RA[nall] = $5 + 0 }
		if (!(f in ta)) { ta[f] = $1; ba[f] = $8 }
		tb[f] = $1; bb[f] = $8
		next
	}
	file == 4 && FNR > 1 {                                                                      # queue.csv
		if (!q0) { d0 = $4; m0 = $5; q0 = 1 }
		d1 = $4; m1 = $5
		if ($1 >= t1 && !w0) { wd0 = $4; wm0 = $5; w0 = 1 }
		if ($1 <= t2) { wd1 = $4; wm1 = $5 }
		if ($1 >= t1 && $1 <= t2 && $2 != "") { nq++; QB[nq] = $2 + 0; QP[nq] = $3 + 0; sqb += $2; sqp += $3; if ($3 > qmx) qmx = $3 + 0 }
		next
	}
	file == 5 && FNR > 1 {                                                                      # iperf.csv
		if ($1 >= t1 && $1 <= t2 && $6 > 0) { ni2++; IR[ni2] = $6 + 0; sir += $6 }
		next
	}
	END {
		if (!wset) setwin()
		for (i = 1; i <= ni; i++) addiv(iv_f[i], iv_a[i], iv_b[i], iv_n[i])
		for (i = 1; i <= nc; i++) if (!(cv_f[i] in hasI)) addiv(cv_f[i], cv_a[i], cv_b[i], cv_n[i])
		fo = dir "/summary_flows.tsv"
		printf "flow\tcc\tsender_tcp_congestion\tsender\tport\tstart_s\tthroughput_bps\twindow_throughput_bps\tacked_window_bps\tretransmits\tmean_rtt_ms\tp99_rtt_ms\tmin_rtt_ms\tsamples\terror\n" > fo
		ccok = 1; flok = 1; sw = 0; sw2 = 0; athr = 0; aret = 0
		for (i = 1; i <= nf; i++) {
			f = fid[i]; n = rn[f] + 0; s = 0
			for (j = 1; j <= n; j++) { T[j] = R[f, j]; s += T[j] }
			mr = (n ? s / n : "nan"); p99 = pct(T, n, 99); mn = (n ? T[1] : "nan")
			w = wb[f] * 8 / (t2 - t1); sw += w; sw2 += w * w
			ak = (tb[f] > ta[f] ? sprintf("%.0f", (bb[f] - ba[f]) * 8 / (tb[f] - ta[f])) : "nan")
			e = (f in err ? err[f] : "no_output"); if (e == "") e = "-"
			if (!(f in scc) || scc[f] != cc[f]) ccok = 0
			if (e != "-") flok = 0
			athr += thr[f]; aret += ret[f]
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%.0f\t%s\t%d\t%s\t%s\t%s\t%d\t%s\n", f, cc[f],
				(f in scc ? scc[f] : "?"), snd[f], port[f], st[f], thr[f], w, ak, ret[f],
				f3(mr), f3(p99), f3(mn), n, e > fo
		}
		so = dir "/summary.tsv"
		printf "rate_mbit\t%s\n", rate > so
		printf "window_t1\t%.3f\nwindow_t2\t%.3f\n", t1, t2 > so
		printf "n_flows\t%d\n", nf > so
		printf "agg_throughput_bps\t%.0f\n", athr > so
		printf "agg_window_throughput_bps\t%.0f\n", sw > so
		printf "util_pct\t%.2f\n", sw / (rate * 1e6) * 100 > so
		printf "jain\t%s\n", (sw2 > 0 ? sprintf("%.4f", sw * sw / (nf * sw2)) : "nan") > so
		s = 0; for (j = 1; j <= nall; j++) s += RA[j]
		printf "mean_rtt_ms\t%s\n", f3(nall ? s / nall : "nan") > so
		printf "p99_rtt_ms\t%s\n", f3(pct(RA, nall, 99)) > so
		printf "min_rtt_ms\t%s\n", f3(nall ? RA[1] : "nan") > so
		printf "rtt_samples\t%d\n", nall > so
		printf "iperf_mean_rtt_ms\t%s\n", f3(ni2 ? sir / ni2 : "nan") > so
		printf "iperf_p99_rtt_ms\t%s\n", f3(pct(IR, ni2, 99)) > so
		printf "retransmits\t%d\n", aret > so
		printf "mean_backlog_bytes\t%s\n", (nq ? sprintf("%.0f", sqb / nq) : "nan") > so
		printf "p99_backlog_bytes\t%s\n", pct(QB, nq, 99) > so
		printf "mean_backlog_pkts\t%s\n", (nq ? sprintf("%.2f", sqp / nq) : "nan") > so
		printf "p99_backlog_pkts\t%s\n", pct(QP, nq, 99) > so
		printf "max_backlog_pkts\t%d\n", qmx > so
		printf "mean_qdelay_ms\t%s\n", (nq ? sprintf("%.3f", sqb / nq * 8 / (rate * 1e6) * 1e3) : "nan") > so
		printf "queue_samples\t%d\n", nq > so
		printf "drops\t%d\nmarks\t%d\n", d1 - d0, m1 - m0 > so
		printf "window_drops\t%d\nwindow_marks\t%d\n", wd1 - wd0, wm1 - wm0 > so
		printf "cc_ok\t%d\nflows_ok\t%d\n", ccok, flok > so
	}
	function addiv(f, a, b, by,   x, y) {   # interval [a,b] s after the flow start
		a += st[f]; b += st[f]
		x = (a > t1 ? a : t1); y = (b < t2 ? b : t2)
		if (y > x && b > a) wb[f] += by * (y - x) / (b - a)
	}' "$dir/flows.tsv" "$tmp" "$dir/flows.csv" "$dir/queue.csv" "$dir/iperf.csv" ||
		{ _net_die "net_summarize: awk failed"; return 1; }
	rm -f "$tmp"

	jq -n --rawfile conf "$dir/net.conf" --rawfile agg "$dir/summary.tsv" \
		--rawfile fl "$dir/summary_flows.tsv" '
		def val: if test("^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$") then tonumber else . end;
		def kv(sep): split("\n") | map(select(length > 0) | split(sep) | {(.[0]): (.[1:] | join(sep) | val)}) | add;
		($fl | split("\n") | map(select(length > 0) | split("\t"))) as $rows |
		{ config: ($conf | kv("=")),
		  aggregate: ($agg | kv("\t")),
		  flows: [ $rows[1:][] as $r | [$rows[0], $r] | transpose | map({(.[0]): ((.[1] // "") | val)}) | add ] }' \
		>"$dir/summary.json"
}

# one-line human summary of a run (for logs)
net_summary_line() {
	local dir=${1:-$NET_RUN} k v
	local -A s=()
	while IFS=$'\t' read -r k v; do s[$k]=$v; done <"$dir/summary.tsv"
	echo "util ${s[util_pct]}% ($((${s[agg_window_throughput_bps]} / 1000)) kbit/s in [${s[window_t1]},${s[window_t2]}] s), jain ${s[jain]}, rtt mean ${s[mean_rtt_ms]} p99 ${s[p99_rtt_ms]} ms (${s[rtt_samples]} ss samples; iperf3 mean ${s[iperf_mean_rtt_ms]}), backlog mean ${s[mean_backlog_pkts]} p99 ${s[p99_backlog_pkts]} max ${s[max_backlog_pkts]} pkts (${s[queue_samples]} samples), drops ${s[drops]} marks ${s[marks]}, retrans ${s[retransmits]}, cc_ok ${s[cc_ok]}"
}

# the last flow's launch time of a run (s since t0; flows.tsv)
net_last_start() {
	awk -F'\t' 'NR == 1 || $5 > m { m = $5 } END { print m }' "${1:-$NET_RUN}/flows.tsv"
}
