#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench-scenario.sh: run benchmark scenarios for a list of congestion
# controls through the netns bottleneck of selftests/net_lib.sh.  Runs inside
# the guest (root, netem) and writes raw data only; tools/bench starts it and
# tools/bench-report computes every figure from what it wrote, on the host.
#
#   --scenarios "A B"  any of: steady joinleave incast rttfair ecn spray cpu
#                      (default: steady)
#   --ccs "A B ..."    congestion controls (default: "cubic bbr dctcp")
#   --duration S       seconds per run (steady, incast, rttfair, ecn, spray;
#                      default 10)
#   --phase S          join/leave: seconds per phase (default 5 = 500 RTTs
#                      at 10 ms; tools/bench: 5 quick, 10 full)
#   --incast "N.."     incast fan-in degrees (default "4 16 64")
#   --paths P          spraying: paths (default 4); cases K = 0..P/2 congested
#   --spray-q "Q.."    spraying over q instead: one congested path that
#                      CE-marks the ECT packets it carries and takes the
#                      share Q of them, one case per Q (in (0, 1))
#   --cpu-hooks SPEC   cpu: per CC, the functions to time, "cc=f1,f2 cc2=..."
#                      (f1: the hook called on every ACK; from tools/bench);
#                      a dcc name not in it: its module's modinfo
#                      dcc_ack_hook, then dcc_lib's (dcc_ack_hooks below)
#   --ecn-ccs "A.."    the CCs of --ccs that run the ECN scenario (default dctcp)
#   --reps R           repetitions per CC and case (default 1)
#   --rate-mbit R      bottleneck rate (default 100)
#   --rtt-ms T         base RTT (default 10)
#   --limit-pkts P     bottleneck queue limit (default: 1 BDP, at least 20)
#   --dctcp-k-bytes K  RED CE-marking threshold used for dctcp in steady and
#                      for every CC in ecn (default 30000, about 20 packets,
#                      ~0.24 BDP at 100 Mbit/s x 10 ms); 0 = dctcp over the
#                      same drop-tail queue as the others in steady
#   --quickack 0|1     receiver ACKs every segment, for every CC (default 1:
#                      the datacenter transports the dcc algorithms come
#                      from ACK per packet; delayed ACKs inflate a paced
#                      flow's RTT samples by up to one packet gap)
#   --out DIR          results (default $DCC_OUT/bench, DCC_OUT default /tmp/dcc-out)
#
# Scenarios (one fresh topology per CC and case, reused for its repetitions):
#   steady     one flow alone; dctcp on a RED CE-marking queue (what it is
#              designed for), every other CC on the drop-tail FIFO
#   joinleave  flows join and leave 1->2->4->8->4->1, one phase each (8 flows
#              from one sender netns; flow 0 runs all 6 phases, flow 1 phases
#              2-5, flows 2-3 phases 3-5, flows 4-7 phase 4)
#   incast     N flows started together from min(N, 4) sender netns
#   rttfair    two flows, base RTTs T and 2T (case 2x), T and 4T (case 4x);
#              queue limit 1 BDP of the longer RTT
#   ecn        two flows on a RED queue that CE-marks above K bytes, ECN on
#   spray      one flow sprayed per packet over P paths, K = 0..P/2 of them
#              congested (+base RTT of one-way delay: a congested path's RTT
#              is 2x base; cases p<P>k<K>), or with --spray-q one of them,
#              taking the share q of the packets and CE-marking them (the
#              spraying paper's congested queue; cases p<P>q<Q>); the rate
#              limit after the paths stays the bottleneck; the sender
#              tolerates 300 packets of reordering (RACK off, dupthresh
#              300), as a sprayed fabric's transport does
#   cpu        during the steady runs (added if not selected), one bpftrace
#              times every CC's per-ACK hooks (kprobe/kretprobe, guest
#              clock) and, as a calibration, a near-empty kernel function
#              (tcp_rack_advance) with the same probe pair; the data sender's
#              sockets only; raw maps in DIR/cpu/bpftrace.txt
#
# Output: DIR/<scenario>/<cc>/<case>/<rep>/ (net_lib's run dir: flows.tsv,
# flows.csv, queue.csv, iperf.csv, flow*.json, net.conf; burst: burst.txt),
# DIR/cpu/ (the cpu scenario's bpftrace maps), and DIR/runs.tsv, one line
# per run in the order they ran: "scenario cc case rep flows_ok" (flows_ok
# 1: every flow, and a burst's trace, ran without error).
# Exit 1 if any run failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../selftests/net_lib.sh
source "$root/selftests/net_lib.sh"
# shellcheck source=../selftests/burst_lib.sh
source "$root/selftests/burst_lib.sh"

scenarios=steady ccs="cubic bbr dctcp" dur=10 phase=5 incast="4 16 64" paths=4 burst="1 3 7" burst_s=1
spray_q=''
cpu_hooks='' ecn_ccs=dctcp reps=1 rate=100 rtt=10 limit='' dk=30000 out='' quickack=1
while (($#)); do
	case $1 in
	--scenario | --scenarios) scenarios=$2; shift ;;
	--ccs) ccs=$2; shift ;;
	--duration) dur=$2; shift ;;
	--phase) phase=$2; shift ;;
	--incast) incast=$2; shift ;;
	--burst) burst=$2; shift ;;
	--paths) paths=$2; shift ;;
	--spray-q) spray_q=$2; shift ;;
	--cpu-hooks) cpu_hooks=$2; shift ;;
	--ecn-ccs) ecn_ccs=$2; shift ;;
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
runs=$out/runs.tsv
[[ -e $runs ]] || printf 'scenario\tcc\tcase\trep\tflows_ok\n' >"$runs"

t_start=${EPOCHREALTIME/./}
progress() { echo "[bench $(((${EPOCHREALTIME/./} - t_start) / 1000000))s] $*"; }

[[ $(id -u) == 0 ]] || { echo "bench-scenario: needs root (run it in the guest)" >&2; exit 1; }

# ran SCENARIO CC CASE REP OK: the run's line in runs.tsv, and its log line
ran() {
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$runs"
	progress "$1 $2 $3 rep $4: $(($(wc -l <"$NET_RUN/flows.tsv") + 0)) flow(s), $(($(wc -l <"$NET_RUN/queue.csv" 2>/dev/null || echo 1) - 1)) bottleneck samples$( (($5)) || echo ', FLOW ERROR')"
	(($5)) || failed=1
}

# setup CC [net_setup args]: a fresh topology for CC (ECN if it needs it)
setup() {
	local cc=$1
	shift
	# net_setup keeps its effective config in NET_*, which it also reads as
	# defaults: reset what one case sets, or it leaks into the next
	# shellcheck disable=SC2034 # (read by net_setup)
	NET_ECN=0 NET_ECN_K_BYTES='' NET_SENDERS=1 NET_RTT_MS=$rtt NET_FWD_MS='' NET_PATHS=1
	# shellcheck disable=SC2034
	NET_CONGESTED=0 NET_CONGESTED_MS='' NET_LIMIT_PKTS=$limit NET_LIMIT_BYTES=''
	# shellcheck disable=SC2034
	NET_CONGESTED_Q='' NET_CONGESTED_CE=0 NET_REORDER_TOL=0 NET_ACK_HOPS=''
	# an ECN CC (dctcp, nscc, ...) negotiates ECN everywhere, also on the
	# drop-tail cases: without it dctcp falls back to "dctcp-reno" and the
	# run would not be the CC it names (cc_ok 0)
	local ecn=()
	[[ " $ecn_ccs " == *" $cc "* ]] && ecn=(--ecn)
	net_setup --rate-mbit "$rate" "${ecn[@]}" "$@" || return 1
	if [[ $quickack == 1 ]]; then net_quickack || return 1; fi
}

# one_case SCENARIO CC CASE -- net_setup args -- flow args: a topology, then
# reps runs of net_run_flows with the flow args
one_case() {
	local s=$1 c=$2 k=$3 r ok
	shift 3
	local sa=() fa=()
	[[ ${1:-} == -- ]] && shift
	while (($#)) && [[ $1 != -- ]]; do sa+=("$1"); shift; done
	(($#)) && shift
	fa=("$@")
	setup "$c" "${sa[@]}" || { progress "$s $c $k: setup failed"; failed=1; net_cleanup; return 1; }
	for ((r = 1; r <= reps; r++)); do
		progress "$s $c $k rep $r/$reps"
		net_new_run "$out/$s/$c/$k/$r"
		ok=1
		net_run_flows --cc "$c" "${fa[@]}" || ok=0
		ran "$s" "$c" "$k" "$r" "$ok"
	done
	net_cleanup
}

scenario_steady() { # CC
	local c=$1 sa=(--rtt-ms "$rtt")
	if [[ $c == dctcp ]]; then
		if [[ $dk != 0 ]]; then sa+=(--ecn-k-bytes "$dk"); else sa+=(--ecn); fi
	fi
	one_case steady "$c" single -- "${sa[@]}" -- --n 1 --duration "$dur"
}

scenario_incast() { # CC
	local c=$1 n snd
	for n in $incast; do
		snd=$((n < 4 ? n : 4))
		# 64 launches take seconds under TCG: the common window needs room
		local d=$dur
		((n >= 32 && d < 10)) && d=10
		NET_SS_MAX_DUTY=0.05 one_case incast "$c" "n$n" -- --rtt-ms "$rtt" --senders "$snd" -- \
			--n "$n" --duration "$d" --interval "$( ((n <= 16)) && echo 0.1 || echo 0.5)"
	done
}

scenario_rttfair() { # CC
	local c=$1 m
	for m in 2 4; do
		one_case rttfair "$c" "${m}x" -- --senders 2 --rtt-ms "$rtt,$((rtt * m))" -- \
			--n 2 --duration "$dur"
	done
}

scenario_ecn() { # CC
	local c=$1
	[[ " $ecn_ccs " == *" $c "* ]] || return 0
	one_case ecn "$c" "k$dk" -- --rtt-ms "$rtt" --ecn-k-bytes "$dk" -- --n 2 --duration "$dur"
}

scenario_spray() { # CC
	local c=$1 k q
	for q in $spray_q; do
		one_case spray "$c" "p${paths}q$q" -- --rtt-ms "$rtt" --paths "$paths" --congested 1 \
			--congested-q "$q" --congested-ce --reorder-tol 300 -- --n 1 --duration "$dur"
	done
	[[ -z $spray_q ]] || return 0
	for ((k = 0; k <= paths / 2; k++)); do
		one_case spray "$c" "p${paths}k$k" -- --rtt-ms "$rtt" --paths "$paths" --congested "$k" \
			--reorder-tol 300 -- --n 1 --duration "$dur"
	done
}

# burst: one long flow (or L: burst entries "L+K"), K short flows join for
# burst_s seconds, then stop (see the header); the bpftrace and the
# figures: selftests/burst_lib.sh.  Case k<K>, or l<L>k<K> for L > 1.
scenario_burst() { # CC
	local c=$1 kk k l cs r ok
	for kk in $burst; do
		k=${kk#*+} l=1
		[[ $kk == *+* ]] && l=${kk%+*}
		cs=k$k
		((l > 1)) && cs=l${l}k$k
		setup "$c" --rtt-ms "$rtt" --senders 2 || { progress "burst $c $kk: setup failed"; failed=1; net_cleanup; return 1; }
		for ((r = 1; r <= reps; r++)); do
			progress "burst $c $kk rep $r/$reps: $l long flow(s), $k join for $burst_s s"
			net_new_run "$out/burst/$c/$cs/$r"
			ok=1
			BURST_RAW=1 burst_run "$c" "$k" "$burst_s" "$l" || ok=0
			ran burst "$c" "$cs" "$r" "$ok"
		done
		net_cleanup
	done
}

# join/leave: groups of flows launched on a schedule (see the header)
scenario_joinleave() { # CC
	local c=$1 r ok
	setup "$c" --rtt-ms "$rtt" || { progress "joinleave $c: setup failed"; failed=1; net_cleanup; return 1; }
	for ((r = 1; r <= reps; r++)); do
		progress "joinleave $c rep $r/$reps: 6 phases of $phase s"
		net_new_run "$out/joinleave/$c/1-2-4-8-4-1/$r"
		ok=1
		local lag=0 s0='' g n at d call rel t0_us=${NET_T0/./}
		# group: start phase, flows, duration in phases
		for g in "0 1 6" "1 1 4" "2 2 3" "3 4 1"; do
			read -r at n d <<<"$g"
			if [[ -n $s0 ]]; then
				# sleep until the group's planned start minus the launch lag
				local want_us
				_net_us want_us "$(awk -v s="$s0" -v a="$at" -v p="$phase" -v l="$lag" 'BEGIN { printf "%.6f", s + a * p - l }')"
				local now_us=$((${EPOCHREALTIME/./} - t0_us))
				((want_us > now_us)) && _net_sleep "$(awk -v x=$((want_us - now_us)) 'BEGIN { printf "%.6f", x / 1e6 }')"
			fi
			_net_s call $((${EPOCHREALTIME/./} - t0_us))
			NET_SS_MAX_DUTY=0.05 net_start_flows --cc "$c" --n "$n" --interval 0.1 \
				--duration "$(awk -v d="$d" -v p="$phase" 'BEGIN { print d * p }')" || { ok=0; break; }
			rel=$(tail -n 1 "$NET_RUN/flows.tsv" | cut -f5)
			if [[ -z $s0 ]]; then
				s0=$rel
				lag=$(awk -v a="$rel" -v b="$call" 'BEGIN { printf "%.3f", a - b }')
			fi
		done
		net_wait_flows || ok=0
		ran joinleave "$c" 1-2-4-8-4-1 "$r" "$ok"
	done
	net_cleanup
}

# dcc_ack_hooks NAME: a dcc name's per-ACK hooks, "f1,f2@1": its module's
# own (modinfo dcc_ack_hook: DCC_ACK_HOOK() in include/dcc/dcc.h; modinfo
# finds the module by the name's tcp_NAME alias), then dcc_lib's, which
# every dcc socket's ACK enters first; nothing for a module without them
dcc_ack_hooks() {
	local own lib
	own=$(modinfo -F dcc_ack_hook "tcp_$1" 2>/dev/null | paste -sd, -)
	[[ -n $own ]] || return 0
	lib=$(modinfo -F dcc_ack_hook dcc_lib 2>/dev/null | paste -sd, -)
	echo "$own${lib:+,$lib}"
}

# cpu: one bpftrace over the steady runs times every CC's per-ACK hooks
# (see the header); cpu_start before them, cpu_stop after
cpu_start() {
	local c f hooks bt=$out/cpu/cpu.bt
	cpu_log=$out/cpu/bpftrace.txt cpu_pid=''
	mkdir -p "$out/cpu"
	: >"$out/cpu/hooks.tsv"
	command -v bpftrace >/dev/null || { progress "cpu: no bpftrace in the guest (vmtest --bpftrace)"; failed=1; return 1; }
	local -A seen=() hk=()
	local fn=(tcp_rack_advance) all=()
	# each CC's list: --cpu-hooks, else (a dcc name) its module's metadata
	for c in "${avail[@]}"; do
		for f in $cpu_hooks; do [[ ${f%%=*} == "$c" ]] && hk[$c]=${f#*=}; done
		[[ -n ${hk[$c]:-} ]] || hk[$c]=$(dcc_ack_hooks "$c")
		[[ -n ${hk[$c]} ]] && all+=("${hk[$c]}")
	done
	all=(${all[*]//,/ })
	all=(${all[*]%@*})	# NAME@N: the symbol is NAME
	# which of the hook functions the kernel has, and how often (one grep
	# over kallsyms): a name defined twice (the same static function in two
	# modules) makes a kprobe by name ambiguous and bpftrace refuse the
	# whole script
	local -A nsym=()
	for f in $(grep -oE " ($(IFS='|'; echo "${all[*]}"))(\s|$)" /proc/kallsyms | tr -d ' \t'); do
		nsym[$f]=$((${nsym[$f]:-0} + 1))
	done
	for c in "${avail[@]}"; do
		hooks=${hk[$c]}
		[[ -n $hooks ]] || { progress "cpu $c: no hooks known, skipped"; continue; }
		for f in ${hooks//,/ }; do
			f=${f%@*}
			[[ -n ${nsym[$f]:-} ]] ||
				{ progress "cpu $c: $f not in kallsyms, skipped"; hooks=''; break; }
			((nsym[$f] == 1)) ||
				{ progress "cpu $c: $f defined ${nsym[$f]} times in kallsyms (ambiguous probe), skipped"; hooks=''; break; }
		done
		[[ -n $hooks ]] || continue
		printf '%s\t%s\n' "$c" "$hooks" >>"$out/cpu/hooks.tsv"
		for f in ${hooks//,/ }; do [[ -n ${seen[$f]:-} ]] || { seen[$f]=1; fn+=("$f"); }; done
	done
	# per function: time on the data sender's sockets only (local port >=
	# 10000; the receiver's are 5201+), not nested in another timed hook;
	# keyed by the socket's tcp_congestion_ops; nsecs is read last on entry
	# and first on return
	{
		echo 'kprobe:tcp_ack { $sk = (struct sock *)arg0;'
		echo '  if ($sk->__sk_common.skc_num >= 10000) { $o = (uint64)((struct inet_connection_sock *)$sk)->icsk_ca_ops;'
		echo '    @acks[$o] = count(); @name[$o] = ((struct tcp_congestion_ops *)$o)->name; } }'
		local a
		for f in "${fn[@]}"; do
			a=0
			[[ $f == *@* ]] && { a=${f#*@}; f=${f%@*}; }
			echo "kprobe:$f { \$sk = (struct sock *)arg$a;"
			echo "  if (\$sk->__sk_common.skc_num >= 10000 && @act[tid] == 0) {"
			echo "    @act[tid] = 1; @ops[tid] = (uint64)((struct inet_connection_sock *)\$sk)->icsk_ca_ops; @t0[tid] = nsecs; } }"
			echo "kretprobe:$f /@t0[tid]/ { \$d = nsecs - @t0[tid];"
			echo "  @ns[\"$f\", @ops[tid]] = sum(\$d); @calls[\"$f\", @ops[tid]] = count(); delete(@t0[tid]); @act[tid] = 0; }"
		done
		echo 'END { clear(@t0); clear(@act); clear(@ops); }'
	} >"$bt"
	progress "cpu: starting bpftrace on ${fn[*]}"
	net_bpftrace "$bt" "$cpu_log" 3000
	cpu_pid=$NET_BT_PID
	_net_sleep 1
	kill -0 "$cpu_pid" 2>/dev/null || { progress "cpu: bpftrace failed: $(tail -n 5 "$cpu_log")"; cpu_pid=''; failed=1; return 1; }
	progress "cpu: bpftrace attached"
}

cpu_stop() {
	[[ -n ${cpu_pid:-} ]] || return 0
	net_bpftrace_stop 120 "$cpu_pid"	# END prints the maps
	cpu_pid=''
	progress "cpu: $(grep -c '^@' "$cpu_log") map entries in $cpu_log"
}

[[ $(id -u) == 0 ]] || exit 1
progress "scenarios [$scenarios]: ccs [$ccs], $reps rep(s), $dur s, $rate Mbit/s, base RTT $rtt ms -> $out"
failed=0
avail=()
for cc in $ccs; do
	if net_cc_load "$cc"; then avail+=("$cc"); else progress "$cc: not available, skipped"; failed=1; fi
done
# cpu rides on the steady runs ("measured on the same run"): a fixed ACK
# load of one flow at the bottleneck rate, with quickack one ACK per segment
run_list=$scenarios
if [[ " $scenarios " == *" cpu "* ]]; then
	run_list=${run_list//cpu/}
	[[ " $run_list " == *" steady "* ]] || run_list="steady $run_list"
fi
for s in $run_list; do
	declare -F "scenario_$s" >/dev/null || { echo "bench-scenario: no scenario '$s'" >&2; failed=1; continue; }
	[[ $s == steady && " $scenarios " == *" cpu "* ]] && cpu_start
	for cc in "${avail[@]}"; do
		"scenario_$s" "$cc" || failed=1
	done
	[[ $s == steady ]] && cpu_stop
done
progress "done; $runs"
exit $failed
