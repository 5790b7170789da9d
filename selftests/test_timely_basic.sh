#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TIMELY / patched TIMELY / SQCC plumbing: each module loads
# (pulling in dcc_lib) and registers its name, is selectable by setsockopt
# (iperf3 -C) and by sysctl (default CC), refuses bad tunables with EINVAL
# keeping the old value (including T_low >= T_high), reports state through
# ss -ti (get_info), has its rate_update tracepoint, and unloads when idle.
source "$(dirname "$0")/lib.sh"

ALGS=(timely timely_p sqcc)
TR=/sys/kernel/tracing

ktap_print_header
require_root
require_cmd modprobe iperf3 jq ss
for a in "${ALGS[@]}"; do
	if ! modinfo "tcp_$a" >/dev/null 2>&1; then
		[[ ${DCC_REQUIRE_MODULES:-0} == 1 ]] || ktap_skip_all "tcp_$a.ko not installed"
	fi
done
ktap_set_plan 17
dmesg_mark

# 1. load (fresh: earlier tests of the run leave the testbed scale set)
ok=1
for a in "${ALGS[@]}"; do
	modprobe -r "tcp_$a" 2>/dev/null
done
for a in "${ALGS[@]}"; do
	log_cmd modprobe "tcp_$a" && grep -qw "$a" /proc/sys/net/ipv4/tcp_available_congestion_control || ok=0
done
ktap_test_result "modprobe tcp_timely tcp_timely_p tcp_sqcc registers all three (dcc_lib refcnt $(cat /sys/module/dcc_lib/refcnt 2>/dev/null))" [ $ok = 1 ]

# 2-4. tunables: a bad write is refused and the old value stays (T_low
# and T_high given first: their 0 defaults, derived from C, order nothing)
n=0 all=1
for a in "${ALGS[@]}"; do
	echo 500 >"/sys/module/tcp_$a/parameters/t_high_us"
	echo 50 >"/sys/module/tcp_$a/parameters/t_low_us"
	for bad in "alpha_ppm 0" "alpha_ppm 1000001" "beta_ppm 0" "beta_ppm abc" \
		   "delta_kbps -1" "delta_kbps 100000001" "t_low_us -1" "t_low_us 500" \
		   "t_high_us 50" "t_high_us 1000001" "seg_bytes 1000" "seg_bytes 4194305" \
		   "link_mbps 800001" "rate_min_kbps 100000001" "hai_thresh 256" "loss_md_pct 101" "loss_regain 2" "empty_hai 2" "update_clock 3" \
		   "delay_mode 2" "rtt_filter -1" "min_rtt_us 1000001" "base_rtt_us 99999999999" \
		   "init_rate_kbps 800000001"; do
		# shellcheck disable=SC2086
		param_write_refused "tcp_$a" $bad || all=0
		n=$((n + 1))
	done
done
for bad in "tcp_timely_p rtt_ref_us 1000001" "tcp_sqcc n_source 4" "tcp_sqcc n_flows 65536" \
	"tcp_sqcc thigh_max_cut 2"; do
	# shellcheck disable=SC2086
	param_write_refused $bad || all=0
	n=$((n + 1))
done
ktap_test_result "$n out-of-range/garbage tunable writes refused (incl. T_low >= T_high), values unchanged" [ $all = 1 ]
P=/sys/module/tcp_sqcc/parameters
if echo 600 >$P/t_high_us && echo 100 >$P/t_low_us && [[ $(cat $P/t_low_us) == 100 ]] &&
	echo 50 >$P/t_low_us && echo 500 >$P/t_high_us && [[ $(cat $P/t_high_us) == 500 ]] &&
	echo 0 >$P/t_low_us && echo 0 >$P/t_high_us && [[ $(cat $P/t_high_us) == 0 ]]; then
	ktap_test_pass "valid threshold writes are taken (sqcc T_high 600, T_low 100, 50/500, then the defaults 0/0)"
else
	ktap_test_fail "valid threshold writes are taken"
fi
for a in "${ALGS[@]}"; do	# the defaults back (0: derived from C)
	echo 0 >"/sys/module/tcp_$a/parameters/t_low_us"
	echo 0 >"/sys/module/tcp_$a/parameters/t_high_us"
done
ktap_load_refused tcp_timely_p beta_ppm=0

# loopback flows at a paced 50 Mbit/s start (then the law's own dynamics)
iperf3 -s -D -p 5301 --logfile /tmp/timely-basic-srv.log
sleep 0.3
run_client() { # OUTFILE ARGS...
	local out=$1; shift
	timeout 20 iperf3 -c 127.0.0.1 -p 5301 -t 1 -J "$@" >"$out" 2>/dev/null
}

# 5-7. per socket: setsockopt(TCP_CONGESTION) via iperf3 -C
for a in "${ALGS[@]}"; do
	echo 50000 >/sys/module/tcp_$a/parameters/init_rate_kbps
	run_client /tmp/tl-$a-c.json -C "$a"
	cc=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/tl-$a-c.json)
	bps=$(jq -r '.end.sum_received.bits_per_second // 0' /tmp/tl-$a-c.json)
	ktap_expect "setsockopt: iperf3 -C $a: the sender's CC" "$cc" == "$a"
	ktap_expect "setsockopt: iperf3 -C $a: goodput" "$(fround "$bps/1e6" 2)" '>' 1 Mbit/s
done

# 8. system default: sysctl net.ipv4.tcp_congestion_control=ALG
old_cc=$(sysctl -n net.ipv4.tcp_congestion_control)
ok=1 got=
for a in "${ALGS[@]}"; do
	sysctl -qw net.ipv4.tcp_congestion_control="$a"
	run_client /tmp/tl-$a-s.json
	cc=$(jq -r '.end.sender_tcp_congestion // empty' /tmp/tl-$a-s.json)
	got+="$cc "
	[[ $cc == "$a" ]] || ok=0
done
sysctl -qw net.ipv4.tcp_congestion_control="$old_cc"
ktap_test_result "sysctl: default CC timely, timely_p, sqcc used by a plain socket (got: $got)" [ $ok = 1 ]

# 9-10. ss -ti info while sqcc flows run; N is this host's sqcc count to
# the destination (n_source=2).  127.0.0.2: only the client's -P data
# sockets go there (control sockets are cubic, the server's sockets go to
# 127.0.0.1), so N must equal -P exactly, and a second run with fewer
# flows must see fewer (a leaked count from the first would add to it).
echo 2 >$P/n_source
iperf3 -s -D -p 5302 -B 127.0.0.2 --logfile /tmp/timely-basic-srv2.log
sleep 0.3
sqcc_n_of_run() { # PARALLEL -> "N values seen" (from ss -ti during the run)
	local cl out
	timeout 20 iperf3 -c 127.0.0.2 -p 5302 -t 2.5 -P "$1" -C sqcc -J >/tmp/tl-i.json 2>/dev/null &
	cl=$!
	sleep 1.8
	out=$(ss -tin dst 127.0.0.2 2>/dev/null)
	wait $cl
	echo "$out" >>/tmp/tl-ss.txt
	grep -o 'bbr:([^)]*cwnd_gain:[0-9.]*' <<<"$out" | grep -o 'cwnd_gain:[0-9.]*' | cut -d: -f2 | sort -u | tr '\n' ' '
}
: >/tmp/tl-ss.txt
n3=$(sqcc_n_of_run 3)
sleep 1
n2=$(sqcc_n_of_run 2)
echo 0 >$P/n_source
ssout=$(cat /tmp/tl-ss.txt)
if grep -q " sqcc " <<<"$ssout" && grep -q "bbr:(bw:" <<<"$ssout"; then
	ktap_test_pass "ss -ti shows sqcc state: $(grep -o 'bbr:([^)]*)' <<<"$ssout" | head -1)"
else
	ktap_test_fail "ss -ti shows sqcc state"
	log_info "$ssout"
fi
if [[ $n3 == "3 " && $n2 == "2 " ]]; then
	ktap_test_pass "get_info N = this host's sqcc flows to 127.0.0.2: 3 with -P 3, then 2 with -P 2 (no leaked count)"
else
	ktap_test_fail "get_info N = this host's sqcc flows to 127.0.0.2: want 3 then 2, saw '$n3' then '$n2'"
	log_info "$ssout"
fi
ok=1
for a in "${ALGS[@]}"; do
	ev=$TR/events/$a/rate_update
	[[ -f $ev/format ]] && echo 1 >"$ev/enable" && echo 0 >"$ev/enable" || ok=0
done
ktap_test_result "tracepoints timely:, timely_p:, sqcc:rate_update exist and enable" [ $ok = 1 ]

# 12. the three are independent: loading/unloading one leaves the others
pkill -x iperf3
sleep 0.5
for a in "${ALGS[@]}"; do echo 0 >/sys/module/tcp_$a/parameters/init_rate_kbps; done
ok=1
for a in "${ALGS[@]}"; do
	log_cmd modprobe -r "tcp_$a" && [[ ! -d /sys/module/tcp_$a ]] || ok=0
done
ktap_test_result "modprobe -r of all three while idle" [ $ok = 1 ]
# 13. reload with module arguments in order (T_high first)
if modprobe tcp_sqcc t_high_us=50000 t_low_us=5000 && [[ $(cat $P/t_low_us) == 5000 ]] &&
	modprobe -r tcp_sqcc; then
	ktap_test_pass "modprobe tcp_sqcc t_high_us=50000 t_low_us=5000 (the testbed scale) loads"
else
	ktap_test_fail "modprobe tcp_sqcc t_high_us=50000 t_low_us=5000 loads"
fi

# 14.
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
