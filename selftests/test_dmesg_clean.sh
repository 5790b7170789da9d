#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Last test of the suite: the kernel log has no WARNING/BUG/Oops/... lines.
source "$(dirname "$0")/lib.sh"

ktap_print_header
require_cmd dmesg
ktap_set_plan 1
dmesg >"$DCC_OUT/selftests-dmesg.txt" 2>/dev/null
if check_dmesg_clean all; then
	ktap_test_pass "dmesg has no WARNING/BUG/Oops/Call Trace/UBSAN/KASAN/kmemleak/refcount_t lines"
else
	ktap_test_fail "dmesg has no WARNING/BUG/Oops/Call Trace/UBSAN/KASAN/kmemleak/refcount_t lines"
fi
ktap_finished
