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
# The values and their derivation are tools/dcc-tune's testbed profile
# (`tools/dcc-tune --profile testbed --rate-mbit R --rtt-ms T`); this file
# writes them and puts them back.  Defaults are the modules' initialisers
# (modules/*/tcp_*.c); tools/bench-selftest checks that they still match.

DCC_TUNE=${DCC_TUNE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tools/dcc-tune}

dcc_testbed_list() { # MOD RATE_MBIT RTT_MS
	local r=$2 t=$3
	[[ $r =~ ^[1-9][0-9]*$ && $t =~ ^[1-9][0-9]*$ ]] ||
		{ echo "dcc_testbed_list: RATE_MBIT and RTT_MS must be positive integers ('$r' '$t')" >&2; return 2; }
	case ${1#tcp_} in
	oscar | timely | timely_p | sqcc | swift | nscc | ccc) ;;
	*)
		echo "dcc_testbed_list: no testbed parameters for module '$1'" >&2
		return 2
		;;
	esac
	"$DCC_TUNE" --profile testbed --rate-mbit "$r" --rtt-ms "$t" --modules "${1#tcp_}" --format list
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
