#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload the dcc_lib helper module three times.
# Skips (exit 4) when dcc_lib is not installed, unless DCC_REQUIRE_MODULES=1,
# in which case a missing module is a failure.
source "$(dirname "$0")/lib.sh"

CYCLES=${DCC_LIB_LOAD_CYCLES:-3}
MOD=dcc_lib

ktap_print_header
require_root
require_cmd modprobe modinfo

if ! modinfo "$MOD" >/dev/null 2>&1; then
	if [[ ${DCC_REQUIRE_MODULES:-0} == 1 ]]; then
		ktap_set_plan 1
		ktap_test_fail "$MOD module installed (DCC_REQUIRE_MODULES=1)"
		ktap_finished
	fi
	ktap_skip_all "$MOD.ko not installed"
fi

ktap_set_plan $((2 * CYCLES + 2))
dmesg_mark
log_info "$MOD: $(modinfo -n "$MOD")"

# A module that holds dcc_lib (an algorithm left loaded by an earlier test)
# has to go first; that fails if a socket still uses it.
unload() {
	local h
	if [[ -d /sys/module/$MOD/holders ]]; then
		for h in /sys/module/$MOD/holders/*; do
			[[ -e $h ]] && modprobe -r "$(basename "$h")" 2>/dev/null
		done
	fi
	modprobe -r "$MOD"
}

if [[ -d /sys/module/$MOD ]]; then
	if unload; then
		ktap_test_pass "$MOD was loaded; unloaded it first"
	else
		ktap_test_fail "$MOD was loaded and cannot be unloaded (refcnt $(cat /sys/module/$MOD/refcnt 2>/dev/null))"
	fi
else
	ktap_test_pass "$MOD not loaded at start"
fi

for ((i = 1; i <= CYCLES; i++)); do
	if log_cmd modprobe "$MOD" && [[ -d /sys/module/$MOD ]]; then
		ktap_test_pass "cycle $i: modprobe $MOD, /sys/module/$MOD exists"
	else
		ktap_test_fail "cycle $i: modprobe $MOD"
	fi
	if log_cmd modprobe -r "$MOD" && [[ ! -d /sys/module/$MOD ]]; then
		ktap_test_pass "cycle $i: modprobe -r $MOD, /sys/module/$MOD gone"
	else
		ktap_test_fail "cycle $i: modprobe -r $MOD"
	fi
done

if check_dmesg_clean; then
	ktap_test_pass "no kernel warnings while loading/unloading"
else
	ktap_test_fail "no kernel warnings while loading/unloading"
fi
ktap_finished
