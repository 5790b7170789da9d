#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# sim/params-check.sh [KO_DIR]: each simulator glue's module parameters
# (sim/build/test_glue --params) are its kernel module's, with the same
# defaults, read from the built modules themselves (TAP, one test point per
# algorithm):
#   - the names are the module's writable parameters (modinfo parm; the
#     read-only counters medbuf_fallbacks, dst_flows and the live-read
#     shared_entries are the kernel's alone);
#   - each default is the initial value of the module's static of that name
#     (objdump: its 4 bytes in .data, or 0 in .bss).
# KO_DIR: where tcp_*.ko are (default: the repository root, make modules).
set -u
here=$(cd "$(dirname "$0")" && pwd)
ko_dir=${1:-$here/..}
n=0 fails=0

module_of() {
	case $1 in
	lswift | mswift) echo tcp_swift ;;
	mnscc) echo tcp_nscc ;;
	*) echo "tcp_$1" ;;
	esac
}

# the initial value of static u32 NAME in KO, decimal; empty if none
ko_default() { # KO NAME
	local addr sect
	read -r addr sect < <(objdump -t "$1" | awk -v n="$2" '$NF == n && $3 == "O" { print $1, $4; exit }')
	[[ -n ${addr:-} ]] || return 0
	[[ $sect == .bss ]] && { echo 0; return 0; }
	local h
	h=$(objdump -s -j "$sect" --start-address=$((16#$addr)) --stop-address=$((16#$addr + 4)) "$1" |
		awk '/^ [0-9a-f]+ / { print $2; exit }')
	[[ ${#h} == 8 ]] || return 0
	# little-endian x86: the word's bytes in reverse
	echo $((16#${h:6:2}${h:4:2}${h:2:2}${h:0:2}))
}

params=$("$here/build/test_glue" --params) || { echo "not ok 1 - test_glue --params failed"; exit 1; }
for alg in $(awk '{ print $1 }' <<<"$params" | uniq); do
	n=$((n + 1))
	mod=$(module_of "$alg")
	ko=$ko_dir/$mod.ko
	if [[ ! -f $ko ]]; then
		echo "not ok $n - $alg: no $ko (make modules first)"
		fails=$((fails + 1))
		continue
	fi
	bad=()
	sim_names=$(awk -v a="$alg" '$1 == a { print $2 }' <<<"$params" | sort)
	ko_names=$(modinfo -F parm "$ko" | cut -d: -f1 |
		grep -v -x -E 'medbuf_fallbacks|dst_flows|shared_entries' | sort)
	[[ $sim_names == "$ko_names" ]] ||
		bad+=("names differ: $(diff <(echo "$ko_names") <(echo "$sim_names") | grep '^[<>]' | tr '\n' ' ')")
	while read -r _ name def _ _; do
		kdef=$(ko_default "$ko" "$name")
		[[ $kdef == "$def" ]] || bad+=("$name: module default '${kdef:-none}', sim $def")
	done < <(awk -v a="$alg" '$1 == a' <<<"$params")
	if ((${#bad[@]})); then
		echo "not ok $n - $alg: parameters match $mod.ko's"
		printf '#   %s\n' "${bad[@]}"
		fails=$((fails + 1))
	else
		echo "ok $n - $alg: $(wc -l <<<"$sim_names") parameters, names and defaults as in $mod.ko"
	fi
done
echo "1..$n"
((fails == 0))
