# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The one definition of the dcc modules' testbed parameters: the datacenter
# defaults (targets of tens of microseconds, 100 Gbit/s NICs) scaled to the
# guest's bottleneck (100 Mbit/s, 10 ms base RTT by default).  Sourced by
# the selftests' <family>_common.sh and by tools/bench's guest command, so
# tests and benchmark run the algorithms with the same settings.
#
#   dcc_testbed_list MOD RATE_MBIT RTT_MS    "PARAM VALUE DEFAULT" per line,
#                       in write order (MOD: oscar timely timely_p sqcc swift
#                       nscc ccc, or tcp_MOD); exit 2 for an unknown module
#   dcc_testbed_value MOD RATE_MBIT RTT_MS PARAM   one value of that list
#   dcc_testbed_params MOD RATE_MBIT RTT_MS [PARAM=VALUE...]
#                       write the list to /sys/module/tcp_MOD/parameters
#                       (the module must be loaded); PARAM=VALUE replaces a
#                       listed value (a test's override).  Exit 1 if a write
#                       is refused (each refusal is printed on stderr).
#   dcc_testbed_restore MOD   write the module defaults of the listed
#                       parameters back (reverse order)
#   dcc_testbed_dump RATE_MBIT RTT_MS MOD...   every parameter read back, TSV
# DCC_TESTBED_SYSFS replaces /sys/module (tools/bench-selftest's fake tree).
#
# T_low < T_high is enforced by tcp_timely/_p/sqcc on every write against the
# other's current value: the pair is written in the order that keeps it
# valid (raise: t_high_us first; lower: t_low_us first).
#
# Scaling (R = RATE_MBIT, T = RTT_MS; the values at 100 Mbit/s and 10 ms are
# the ones the selftests have always used):
#   oscar   mu = R (the paper assumes it known), D_target 1.5 RTT_base and
#           RTT_base = tcp_min_rtt (ratios: unscaled), tau = 1 RTT_base
#           (a half-RTT batch lets the per-batch gradient noise walk two
#           flows' split), eps = 1.5 ms: the guest's delay noise (its loaded
#           RTT sits ~1 ms above the idle minimum), not a function of R or T
#   timely  T_low0 = 64 KB / C = 5.2 ms at 100 Mbit/s, taken as 500000/R us
#   _p      (5 ms), T_high = 10 T_low0, delta0 = C/500 = 2R kbit/s,
#   sqcc    RTT_ref = T_low (timely_p), D_minRTT and base RTT auto
#           (selftests/timely_common.sh explains the operating point);
#           new sockets start at the link rate (init_rate_kbps = C, as
#           OSCAR and CCC do), in payload: C * 1448 / 1514, what the link
#           carries in 1514-byte frames (1000 R itself paced 104.6% of the
#           wire): from the initial window, delta = C/500 per
#           ~RTT takes ~4 s to reach C, longer than a 5 s run's warm-up.
#           Multi-flow tests set their own start rate (timely_init_rate).
#   swift   queueing allowance Q = 0.3 T (3 ms) above each flow's base
#           RTT (target_mode 0, the default: relative to the base shared
#           per namespace and destination; the selftests that measure one
#           path set the absolute target T_idle + Q, as Swift does),
#           flow-scaling range 5 Q, fs down to 0 at fs_max_cwnd = R T / 10
#           packets (100, ~1.2 BDP)
#   nscc    nic_mbps = R (the bottleneck is the host link), network RTT = T
#           (fixed, so the gains do not follow the guest's ~1 ms of host
#           latency), target queueing delay 0.5 T
#   ccc     R_l = R, q_B = 0.5 T (well above the guest's RTT noise),
#           RTT_min = tcp_min_rtt
# Defaults are the modules' initialisers (modules/*/tcp_*.c);
# tools/bench-selftest checks that they still match.

dcc_testbed_list() { # MOD RATE_MBIT RTT_MS
	local m=${1#tcp_} r=$2 t=$3 q
	[[ $r =~ ^[1-9][0-9]*$ && $t =~ ^[1-9][0-9]*$ ]] ||
		{ echo "dcc_testbed_list: RATE_MBIT and RTT_MS must be positive integers ('$r' '$t')" >&2; return 2; }
	case $m in
	oscar)
		echo "line_rate_mbps $r 0"
		echo "dtarget_pct 150 150"
		echo "base_rtt_us 0 0"
		echo "eps_us 1500 0"
		echo "tau_pct 100 50"
		;;
	timely | timely_p | sqcc)
		q=$((500000 / r))
		((q >= 1)) || q=1
		echo "t_high_us $((10 * q)) 0"
		echo "t_low_us $q 0"
		echo "delta_kbps $((2 * r)) 0"
		if [[ $m == timely_p ]]; then echo "rtt_ref_us $q 0"; fi
		# SQCC's delta = C k / N^2 needs C: without link_mbps it takes
		# C = 1000 delta0, the paper's ratio, twice the testbed's link
		# (delta0 = C/500 here); N stays this host's flow count, which
		# link_mbps alone would switch to the sender-side estimate
		if [[ $m == sqcc ]]; then echo "link_mbps $r 0"; echo "n_source 2 0"; fi
		echo "init_rate_kbps $((1000 * r * 1448 / 1514)) 0"
		;;
	swift)
		q=$((300 * t))
		echo "base_target_us $q 25"
		echo "target_mode 0 0"
		echo "fs_range_us $((5 * q)) 100"
		echo "fs_max_cwnd $(((r * t + 5) / 10)) 256"
		;;
	nscc)
		echo "nic_mbps $r 0"
		echo "network_rtt_us $((1000 * t)) 0"
		echo "target_us $((500 * t)) 0"
		;;
	ccc)
		echo "line_rate_mbps $r 0"
		echo "q_b_us $((500 * t)) 50"
		echo "base_rtt_us 0 0"
		;;
	*)
		echo "dcc_testbed_list: no testbed parameters for module '$1'" >&2
		return 2
		;;
	esac
	return 0
}

dcc_testbed_value() { # MOD RATE_MBIT RTT_MS PARAM
	local l
	l=$(dcc_testbed_list "$1" "$2" "$3") || return
	awk -v p="$4" '$1 == p { print $2; f = 1 } END { exit !f }' <<<"$l"
}

# _dcc_tb_write MOD LINES: write "PARAM VALUE" lines in order; the T_low /
# T_high pair at the place of the first of them, in the order that keeps
# T_low < T_high (see above)
_dcc_tb_write() { # MOD LINES
	local d=${DCC_TESTBED_SYSFS:-/sys/module}/tcp_${1#tcp_}/parameters p v rc=0 lo='' hi='' pair=0
	[[ -d $d ]] || { echo "dcc_testbed: $d missing (module not loaded?)" >&2; return 1; }
	while read -r p v; do
		case $p in
		t_low_us) lo=$v ;;
		t_high_us) hi=$v ;;
		esac
	done <<<"$2"
	while read -r p v; do
		[[ -n $p ]] || continue
		if [[ -n $lo && -n $hi && ($p == t_low_us || $p == t_high_us) ]]; then
			((pair)) && continue
			pair=1
			if ((hi > $(cat "$d/t_low_us"))); then
				_dcc_tb_one "$d" t_high_us "$hi" || rc=1
				_dcc_tb_one "$d" t_low_us "$lo" || rc=1
			else
				_dcc_tb_one "$d" t_low_us "$lo" || rc=1
				_dcc_tb_one "$d" t_high_us "$hi" || rc=1
			fi
			continue
		fi
		_dcc_tb_one "$d" "$p" "$v" || rc=1
	done <<<"$2"
	return $rc
}

_dcc_tb_one() { # DIR PARAM VALUE
	[[ -e $1/$2 ]] || { echo "dcc_testbed: $1/$2 missing" >&2; return 1; }
	echo "$3" 2>/dev/null >"$1/$2" ||
		{ echo "dcc_testbed: writing $3 to $1/$2 refused (now $(cat "$1/$2"))" >&2; return 1; }
}

dcc_testbed_params() { # MOD RATE_MBIT RTT_MS [PARAM=VALUE...]
	local m=$1 l o
	l=$(dcc_testbed_list "$1" "$2" "$3") || return
	shift 3
	for o in "$@"; do
		[[ $o == *=* ]] || { echo "dcc_testbed_params: override '$o' is not PARAM=VALUE" >&2; return 2; }
		awk -v p="${o%%=*}" '$1 == p { f = 1 } END { exit !f }' <<<"$l" ||
			{ echo "dcc_testbed_params: $m has no testbed parameter ${o%%=*}" >&2; return 2; }
		l=$(awk -v p="${o%%=*}" -v v="${o#*=}" '$1 == p { $2 = v } { print }' <<<"$l")
	done
	_dcc_tb_write "$m" "$(awk '{ print $1, $2 }' <<<"$l")"
}

dcc_testbed_restore() { # MOD
	local l
	# any rate/RTT: only the parameter names and defaults are used
	l=$(dcc_testbed_list "$1" 100 10) || return
	_dcc_tb_write "$1" "$(awk '{ a[NR] = $1 " " $3 } END { for (i = NR; i; i--) print a[i] }' <<<"$l")"
}

# dcc_testbed_dump RATE_MBIT RTT_MS MOD...: every parameter of each loaded
# module as read back from /sys/module/tcp_MOD/parameters, TSV with a header
# "module param value testbed" (testbed 1: set by dcc_testbed_params)
dcc_testbed_dump() { # RATE_MBIT RTT_MS MOD...
	local r=$1 t=$2 m f n l d
	shift 2
	printf 'module\tparam\tvalue\ttestbed\n'
	for m in "$@"; do
		m=${m#tcp_}
		d=${DCC_TESTBED_SYSFS:-/sys/module}/tcp_$m/parameters
		[[ -d $d ]] || continue
		l=" $(dcc_testbed_list "$m" "$r" "$t" 2>/dev/null | awk '{ printf "%s ", $1 }') "
		for f in "$d"/*; do
			[[ -r $f ]] || continue
			n=${f##*/}
			printf 'tcp_%s\t%s\t%s\t%d\n' "$m" "$n" "$(cat "$f" 2>/dev/null)" \
				"$([[ $l == *" $n "* ]] && echo 1 || echo 0)"
		done
	done
}
