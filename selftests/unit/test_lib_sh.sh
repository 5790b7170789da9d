#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM tests' comparison helpers (selftests/lib.sh), on the host: every
# threshold in the suite goes through fge/fgt/fle/flt or ktap_expect, so a
# helper that passes a broken measurement makes every test that uses it
# unable to fail.  Checked: the four comparisons, a NaN never passing any
# of them (mawk, Debian's and the guest's awk, compares nan as >= and <=
# every number), and ktap_expect's verdict and output for each operator,
# a NaN and an empty value, and ktap_expect_todo's (a miss is a TODO).  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=selftests/lib.sh
source "$here/../lib.sh"

n=0 failed=0
check() { # DESC CMD...: ok if CMD succeeds
	local desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		failed=$((failed + 1))
	fi
}
# ktap_expect in a subshell with fresh counters: its result line
expect_line() {
	(
		# shellcheck disable=SC2034  # lib.sh's counters
		KTAP_TESTNO=0 KTAP_CNT_PASS=0 KTAP_CNT_FAIL=0
		ktap_expect "$@"
	)
}
# EXPECTED_PREFIX ARGS...: ktap_expect's line starts with the prefix
expect_is() {
	local want=$1 got
	shift
	got=$(expect_line "$@")
	[[ $got == "$want"* ]] || { echo "# got: $got"; return 1; }
}

# ktap_expect_todo's line, as expect_line
todo_line() {
	(
		# shellcheck disable=SC2034  # lib.sh's counters
		KTAP_TESTNO=0 KTAP_CNT_PASS=0 KTAP_CNT_FAIL=0 KTAP_CNT_XFAIL=0
		ktap_expect_todo "$@"
	)
}

echo "TAP version 13"
echo "1..14"
check "fge/fgt/fle/flt on numbers" \
	eval 'fge 0.95 0.9 && fge 0.9 0.9 && fgt 3 2 && fle 1 1 && flt 0.1 0.2 &&
	      ! fge 0.8 0.9 && ! fgt 2 2 && ! fle 2 1 && ! flt 1 1 && fge -1e-3 -0.01'
check "a NaN passes no comparison (either side, any case or sign)" \
	eval '! fge nan 0.9 && ! fle nan 0.9 && ! fgt -nan 0 && ! flt NaN 1 &&
	      ! fge 1 nan && ! fle 1 -nan && ! fge nan nan'
check "infinities compare as numbers" eval 'fge inf 1 && ! fle inf 1 && flt -inf 0'
check "ktap_expect >= passes and prints got, unit and bound" \
	expect_is "ok 1 Jain: 0.95 (expected >= 0.9" "Jain" 0.95 '>=' 0.9
check "ktap_expect >= fails below the bound" \
	expect_is "not ok 1 Jain: 0.85 (expected >= 0.9" "Jain" 0.85 '>=' 0.9
check "ktap_expect <= with a unit and a reason" \
	expect_is "ok 1 recovery: 12 RTT (expected <= 30 RTT; why)" "recovery" 12 '<=' 30 RTT why
check "ktap_expect in: inside, and on both edges" \
	eval 'expect_is "ok 1" q 0.5 in 0.25..0.9 && expect_is "ok 1" q 0.25 in 0.25..0.9 &&
	      expect_is "ok 1" q 0.9 in 0.25..0.9'
check "ktap_expect in: outside fails" expect_is "not ok 1 q: 1.2 (expected in [0.25, 0.9]" q 1.2 in 0.25..0.9
check "ktap_expect == on numbers and on strings" \
	eval 'expect_is "ok 1" n 3.0 == 3 && expect_is "ok 1" cc oscar == oscar && expect_is "not ok 1" cc cubic == oscar'
check "ktap_expect: a NaN fails every numeric operator" \
	eval 'expect_is "not ok 1" x nan ">=" 0 && expect_is "not ok 1" x nan "<=" 1e9 &&
	      expect_is "not ok 1" x nan in 0..1 && expect_is "not ok 1" x nan == 0'
check "ktap_expect: an empty value fails and prints (none)" \
	expect_is "not ok 1 x: (none) (expected >= 0" x "" '>=' 0
check "ktap_expect: > and < are strict" \
	eval 'expect_is "not ok 1" x 1 ">" 1 && expect_is "not ok 1" x 1 "<" 1 && expect_is "ok 1" x 2 ">" 1'
check "ktap_expect_todo: a met goal passes with the bound printed" \
	eval '[[ $(todo_line "known gap" recovery 12 "<=" 30 RTT) == "ok 1 recovery: 12 RTT (expected <= 30 RTT)" ]]'
check "ktap_expect_todo: a miss (and a NaN) is a known failure with the reason, not a pass" \
	eval '[[ $(todo_line "known gap" recovery 58.8 "<=" 30 RTT) == "not ok 1 recovery: 58.8 RTT (expected <= 30 RTT) # TODO known gap" &&
	      $(todo_line "known gap" recovery nan "<=" 30) == "not ok 1 recovery: nan (expected <= 30) # TODO known gap" ]]'
exit $((failed > 0))
