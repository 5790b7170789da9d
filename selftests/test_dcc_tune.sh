#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/dcc-tune against the real modules, as an operator runs it:
#  - for fabrics from 1 Mbit/s to 800 Gbit/s and 1 us to 1 s (with and
#    without buffer, noise, hops and a pinned base RTT), --apply exits 0
#    (no module refuses a value it prints: its ranges are the modules')
#    and every value reads back from /sys/module/tcp_*/parameters;
#  - bad input exits 2 and changes no parameter;
#  - a --write modprobe.d file is what the modules take when they load;
#  - the modules' defaults are back at the end (the list's default column).
source "$(dirname "$0")/lib.sh"

TUNE=$DCC_SELFTESTS_DIR/../tools/dcc-tune
MODS=(tcp_oscar tcp_ccc tcp_swift tcp_nscc tcp_timely tcp_timely_p tcp_sqcc)
CONF=/etc/modprobe.d/dcc-selftest-tune.conf
CASES=(
	"--rate-gbit 100 --rtt-us 12"
	"--rate-gbit 25 --rtt-us 8 --buffer-kb 64 --noise-us 2 --hops 3 --pin-base-rtt"
	"--rate-mbit 1 --rtt-ms 1000 --noise-us 65535"
	"--rate-gbit 800 --rtt-us 1 --buffer-kb 1"
	"--rate-gbit 10 --rtt-us 50 --noise-us 50 --buffer-kb 12000"
)
require_root
for m in "${MODS[@]}"; do
	if ! modprobe -q "$m"; then
		if [[ ${DCC_REQUIRE_MODULES:-0} == 1 ]]; then
			ktap_set_plan 1
			ktap_test_fail "$m loads (DCC_REQUIRE_MODULES=1)"
			ktap_finished
		fi
		ktap_skip_all "$m not available"
	fi
done
ktap_set_plan $((${#CASES[@]} + 3))
dmesg_mark

# a case whose lists name every parameter dcc-tune may write
ALL="--rate-gbit 25 --rtt-us 8 --buffer-kb 64 --noise-us 50 --hops 3 --pin-base-rtt"
# the --write case
W="--rate-gbit 25 --rtt-us 8 --buffer-kb 64 --noise-us 2 --hops 3 --pin-base-rtt"

# read_back COL "MOD..." ARGS...: the module parameters equal column COL
# (2: the value, 3: the module default) of dcc-tune ARGS' list; prints
# each difference
read_back() {
	local col=$1 mods=$2 m p v d want got bad=0
	shift 2
	for m in $mods; do
		while read -r p v d; do
			want=$v
			((col == 3)) && want=$d
			got=$(<"/sys/module/$m/parameters/$p")
			[[ $got == "$want" ]] || { echo "$m $p=$got, want $want"; bad=1; }
		done < <("$TUNE" "$@" --modules "${m#tcp_}" --format list 2>/dev/null)
	done
	return $bad
}

restore_defaults() {
	local m p d
	for m in "${MODS[@]}"; do
		# shellcheck disable=SC2086
		while read -r p _ d; do
			echo "$d" >"/sys/module/$m/parameters/$p" 2>/dev/null ||
				log_warn "$m: cannot restore $p=$d"
		done < <("$TUNE" $ALL --modules "$m" --format list 2>/dev/null)
	done
}
dcc_on_exit "rm -f $CONF; restore_defaults"

for c in "${CASES[@]}"; do
	# shellcheck disable=SC2086
	if err=$("$TUNE" $c --apply 2>&1 >/dev/null) && diff=$(read_back 2 "${MODS[*]}" $c); then
		ktap_test_pass "dcc-tune $c --apply: every value taken and read back"
	else
		ktap_test_fail "dcc-tune $c --apply: ${err:+$err; }${diff:-}"
	fi
done

# bad input: exit 2, no parameter touched (the last case's values stand)
last=${CASES[-1]}
bad_ok=1
for b in "--rate-gbit 0 --rtt-us 12" "--rate-gbit 100 --rtt-us 0" "--rate-gbit 900 --rtt-us 12" \
	"--rate-gbit 100 --rtt-us 12 --modules nosuch" "--rate-gbit x --rtt-us 12" "--rtt-us 12"; do
	rc=0
	# shellcheck disable=SC2086
	"$TUNE" $b --apply >/dev/null 2>&1 || rc=$?
	((rc == 2)) || { bad_ok=0; log_info "dcc-tune $b --apply exited $rc"; }
done
# shellcheck disable=SC2086
if ((bad_ok)) && diff=$(read_back 2 "${MODS[*]}" $last); then
	ktap_test_pass "bad input exits 2 and leaves every parameter as it was"
else
	ktap_test_fail "bad input: ${diff:-an exit status other than 2 (above)}"
fi

# --write: a modprobe.d file the modules take at load (ccc and swift: no
# socket of theirs is open, so they unload)
restore_defaults
step=''
mkdir -p "${CONF%/*}"
# shellcheck disable=SC2086
"$TUNE" $W --modules "ccc swift" --write "$CONF" >/dev/null 2>&1 || step="--write"
[[ -n $step ]] || modprobe -r tcp_ccc tcp_swift || step="modprobe -r tcp_ccc tcp_swift"
[[ -n $step ]] || { modprobe tcp_ccc && modprobe tcp_swift; } || step="modprobe tcp_ccc tcp_swift"
if [[ -z $step ]]; then
	# shellcheck disable=SC2086
	if diff=$(read_back 2 "tcp_ccc tcp_swift" $W); then
		ktap_test_pass "--write $CONF: tcp_ccc and tcp_swift load with its values ($(grep -c '^options' "$CONF") options lines)"
	else
		ktap_test_fail "--write $CONF: values not taken at load: $diff"
	fi
else
	ktap_test_fail "--write $CONF, reload tcp_ccc and tcp_swift: $step failed (refcnt ccc $(cat /sys/module/tcp_ccc/refcnt 2>/dev/null), swift $(cat /sys/module/tcp_swift/refcnt 2>/dev/null))"
fi
rm -f "$CONF"
modprobe -r tcp_ccc tcp_swift 2>/dev/null
modprobe tcp_ccc && modprobe tcp_swift

restore_defaults
# shellcheck disable=SC2086
if diff=$(read_back 3 "${MODS[*]}" $ALL) && check_dmesg_clean; then
	ktap_test_pass "every parameter back at its module default; no WARN/BUG"
else
	ktap_test_fail "defaults restored / dmesg clean: ${diff:-dmesg (above)}"
fi
ktap_finished
