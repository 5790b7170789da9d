# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# dcc selftests: common helpers (kselftest/KTAP conventions).  Source it:
#
#   source "$(dirname "$0")/lib.sh"
#
# KTAP output
#   ktap_print_header            "TAP version 13" (once)
#   ktap_set_plan N              "1..N"
#   ktap_test_pass  "desc"       "ok N desc"
#   ktap_test_fail  "desc"       "not ok N desc"
#   ktap_test_skip  "desc"       "ok N desc # SKIP"
#   ktap_test_result "desc" CMD...   pass/fail by CMD's exit status
#   ktap_test_xfail "desc" "reason"  a known failure (# TODO)
#   ktap_test_todo "desc" "reason" CMD...  pass by CMD, else a known failure
#   ktap_skip_all "reason"       plan 1..0 with a SKIP reason, exit 4
#   ktap_finished                totals, then exit: 1 if anything failed or the
#                                number of results differs from the plan,
#                                4 (KSFT_SKIP) if all results were skips,
#                                else 0
# Requirements (each skips the whole test, exit 4, when not met)
#   require_root, require_cmd CMD..., require_module NAME (modprobe NAME)
# Logging (KTAP diagnostics, "# ..." on stdout)
#   log_info MSG, log_warn MSG, log_debug MSG (only with DCC_VERBOSE=1),
#   log_cmd CMD...  (run CMD, its output as diagnostics, return its status)
# Results
#   dcc_result KEY VALUE   appends "TEST<TAB>KEY<TAB>VALUE" to
#                          $DCC_OUT/results.tsv (TEST = script name without .sh)
# Numbers (awk; operands may be floats)
#   fge A B, fgt A B, fle A B, flt A B   compare, exit status 0 if true
#                                       (never if A or B is a NaN)
#   fcalc EXPR                          prints EXPR evaluated by awk (%.6g)
#   fround EXPR [DIGITS]                prints EXPR rounded (default 2 digits)
# Kernel log
#   dmesg_mark                remember the current end of dmesg
#   check_dmesg_clean [all]   0 if no WARNING/BUG/Oops/... since dmesg_mark (or
#                             in the whole log with "all" or without a mark);
#                             prints the offending lines as diagnostics
# Cleanup
#   dcc_on_exit CMD...        run CMD at exit (LIFO); one EXIT trap for all
# Module parameters (/sys/module/MOD/parameters/PARAM)
#   param_write_refused MOD PARAM VALUE   0 if the write fails and the value
#                             stays (logs what went wrong otherwise)
#   ktap_params_refused MOD "PARAM VALUE"...   one result: every write refused
#   ktap_load_refused MOD ARG one result: reloading MOD with ARG (an
#                             out-of-range PARAM=VALUE) fails; MOD is loaded
#                             clean afterwards either way
#
# Also sets DCC_SELFTESTS_DIR (this directory) and DCC_TEST_NAME.
# Environment: DCC_OUT (results dir, default /tmp/dcc-out), DCC_VERBOSE,
# DCC_IN_VM (set by tools/vmtest), DCC_REQUIRE_MODULES.

[[ -n ${_DCC_LIB_SH:-} ]] && return 0
_DCC_LIB_SH=1

export LC_ALL=C
KSFT_PASS=0
KSFT_FAIL=1
export KSFT_XFAIL=2 KSFT_XPASS=3
KSFT_SKIP=4

DCC_OUT=${DCC_OUT:-/tmp/dcc-out}
mkdir -p "$DCC_OUT" 2>/dev/null || true
DCC_TEST_NAME=${DCC_TEST_NAME:-$(basename "${0%.sh}")}
export DCC_SELFTESTS_DIR
DCC_SELFTESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

KTAP_TESTNO=0
KTAP_PLAN=
KTAP_CNT_PASS=0
KTAP_CNT_FAIL=0
KTAP_CNT_SKIP=0
KTAP_CNT_XFAIL=0

KTAP_HEADER_DONE=0
ktap_print_header() {
	((KTAP_HEADER_DONE)) && return 0
	KTAP_HEADER_DONE=1
	echo "TAP version 13"
}

ktap_set_plan() {
	KTAP_PLAN=$1
	echo "1..$1"
}

ktap_skip_all() {
	ktap_print_header
	echo "1..0 # SKIP $*"
	exit "$KSFT_SKIP"
}

ktap_test_pass() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
	echo "ok $KTAP_TESTNO $*"
}

ktap_test_fail() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
	echo "not ok $KTAP_TESTNO $*"
}

ktap_test_skip() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
	echo "ok $KTAP_TESTNO $* # SKIP"
}

# ktap_test_xfail "desc" "reason": a known failure: "not ok N desc # TODO
# reason" (KTAP: reported, not a failure).  The reason says why the check
# does not hold yet; fix it or keep it visible.
ktap_test_xfail() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_XFAIL=$((KTAP_CNT_XFAIL + 1))
	echo "not ok $KTAP_TESTNO $1 # TODO $2"
}

# ktap_test_result "desc" CMD...: pass if CMD succeeds
ktap_test_result() {
	local desc=$1
	shift
	if "$@"; then ktap_test_pass "$desc"; else ktap_test_fail "$desc"; fi
}

# ktap_expect DESC GOT OP WANT [UNIT [WHY]]: one result from one
# comparison, its threshold written once and printed with what was
# measured: "DESC: GOT UNIT (expected OP WANT UNIT[; WHY])".
#   OP  >= <= > <  numbers
#       in         WANT is "LO..HI", inclusive ("expected in [LO, HI]")
#       ==         numbers or strings
# An empty or non-numeric GOT fails a numeric OP: a measurement that
# broke is a failure, never a pass.
ktap_expect() {
	if _ktap_compare "$@"; then ktap_test_pass "$_KTAP_LINE"; else ktap_test_fail "$_KTAP_LINE"; fi
}

# ktap_expect_todo REASON DESC GOT OP WANT [UNIT [WHY]]: ktap_expect for a
# goal the module does not meet in every run yet: a miss is a known
# failure (ktap_test_xfail with REASON), the bound still written once
ktap_expect_todo() {
	local reason=$1
	shift
	if _ktap_compare "$@"; then ktap_test_pass "$_KTAP_LINE"; else ktap_test_xfail "$_KTAP_LINE" "$reason"; fi
}

# _ktap_compare DESC GOT OP WANT [UNIT [WHY]]: ktap_expect's verdict
# (status) and its result line (_KTAP_LINE)
_ktap_compare() {
	local desc=$1 got=$2 op=$3 want=$4 unit=${5:+ $5} why=${6:+; $6}
	local ok=0 num='^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$' lo hi exp
	local -A cmp=(['>=']=fge ['<=']=fle ['>']=fgt ['<']=flt)
	case $op in
	'>=' | '<=' | '>' | '<')
		exp="$op $want$unit"
		[[ $got =~ $num ]] && "${cmp[$op]}" "$got" "$want" && ok=1 ;;
	in)
		lo=${want%..*} hi=${want#*..}
		exp="in [$lo, $hi]$unit"
		[[ $got =~ $num ]] && fge "$got" "$lo" && fle "$got" "$hi" && ok=1 ;;
	==)
		exp="$want$unit"
		if [[ $got =~ $num && $want =~ $num ]]; then
			fge "$got" "$want" && fle "$got" "$want" && ok=1
		else
			[[ $got == "$want" ]] && ok=1
		fi ;;
	*)
		exp="?"
		log_warn "ktap_expect: unknown OP '$op'" ;;
	esac
	_KTAP_LINE="$desc: ${got:-(none)}$unit (expected $exp$why)"
	((ok))
}

# ktap_test_todo "desc" "reason" CMD...: pass if CMD succeeds, else a known
# failure (ktap_test_xfail with the reason): a goal the module does not
# meet in every run yet
ktap_test_todo() {
	local desc=$1 reason=$2
	shift 2
	if "$@"; then ktap_test_pass "$desc"; else ktap_test_xfail "$desc" "$reason"; fi
}

ktap_print_totals() {
	echo "# Totals: pass:$KTAP_CNT_PASS fail:$KTAP_CNT_FAIL xfail:$KTAP_CNT_XFAIL xpass:0 skip:$KTAP_CNT_SKIP error:0"
}

ktap_finished() {
	ktap_print_totals
	if [[ -n $KTAP_PLAN && $KTAP_TESTNO -ne $KTAP_PLAN ]]; then
		echo "# planned $KTAP_PLAN tests but ran $KTAP_TESTNO"
		exit "$KSFT_FAIL"
	fi
	if ((KTAP_CNT_FAIL > 0)); then
		exit "$KSFT_FAIL"
	elif ((KTAP_CNT_PASS == 0 && KTAP_CNT_SKIP > 0)); then
		exit "$KSFT_SKIP"
	fi
	exit "$KSFT_PASS"
}

# ---- logging --------------------------------------------------------------
log_info() { echo "# $*"; }
log_warn() { echo "# WARN: $*"; }
log_debug() { [[ ${DCC_VERBOSE:-0} == 1 ]] && echo "# debug: $*"; return 0; }
log_cmd() {
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	[[ -n $out ]] && sed 's/^/#   /' <<<"$out"
	return "$rc"
}

# dcc_bt_stop SECONDS PID [NUDGE...]: stop a bpftrace (PID: it, or a
# timeout(1) running it) the way Ctrl-C does, so that its END block runs.
# bpftrace 0.17 (bookworm's) notices a SIGINT in two places only: an
# epoll_wait the signal interrupts (EINTR), or the next perf event it
# handles (perf_event_printer checks the flag).  A SIGINT that lands while
# it is out of epoll_wait (handling the last event before a quiet spell,
# or between two 100 ms timeouts) sets the flag and nothing reads it: it
# polls on for ever.  Seen in CI: test_oscar_burst's bpftrace in
# do_epoll_wait 60 s after its SIGINT, killed, its END's maps lost.  So,
# every 5 s while it lives: NUDGE, a command that makes one of the
# script's own probes fire (net_bpftrace's getppid probe: `bash -c :`),
# whose event ends the poll with END run in full; without a NUDGE,
# SIGINT again (for scripts whose END prints nothing: a SIGINT during
# END's output would cut it short).  After SECONDS: dcc_reap kills it.
dcc_bt_stop() {
	local secs=$1 pid=$2 i
	shift 2
	kill -INT "$pid" 2>/dev/null
	for ((i = 1; i <= secs * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		if ((i % 50 == 0)); then
			log_info "bpftrace (pid $pid) still running $((i / 10)) s after its SIGINT: $( (($#)) && echo "nudge: $*" || echo "SIGINT again")"
			if (($#)); then "$@" >/dev/null 2>&1; else kill -INT "$pid" 2>/dev/null; fi
		fi
		sleep 0.1
	done
	dcc_reap 1 "$pid"
}

# dcc_reap SECONDS PID...: wait for the PIDs (children of this shell) to
# exit, at most SECONDS in all; then SIGKILL the ones left, with a warning
# naming them, and reap them.  A wait through it is bounded: a child
# that hangs costs SECONDS and a line in the log, not the test's time limit.
dcc_reap() {
	local secs=$1 p i alive
	shift
	for ((i = 0; i < secs * 10; i++)); do
		alive=0
		for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
		((alive)) || break
		sleep 0.1
	done
	for p in "$@"; do
		kill -0 "$p" 2>/dev/null || continue
		log_warn "pid $p ($(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-80)) still running after $secs s: killed (wchan $(cat "/proc/$p/wchan" 2>/dev/null))"
		kill -KILL "$p" 2>/dev/null
	done
	for p in "$@"; do wait "$p" 2>/dev/null; done
	return 0
}

# ---- requirements (skip the whole test) -----------------------------------
require_root() {
	[[ $(id -u) -eq 0 ]] || ktap_skip_all "needs root"
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || ktap_skip_all "missing command: $c"
	done
}

require_module() {
	modprobe -q "$1" 2>/dev/null || ktap_skip_all "module $1 not available"
}

# ---- results ----------------------------------------------------------------
dcc_result() {
	local key=$1
	shift
	printf '%s\t%s\t%s\n' "$DCC_TEST_NAME" "$key" "$*" >>"$DCC_OUT/results.tsv"
	log_info "result: $key = $*"
}

# ---- float helpers ------------------------------------------------------------
# A NaN compares false, as in IEEE 754: mawk (Debian's awk, and the
# guest's) says nan >= x and nan <= x for every x, so a measurement that
# came out "nan" (no data) used to pass every bound it was held to.
_DCC_AWK_NAN='function nan(x) { return tolower(x "") ~ /nan/ }'
fge() { awk -v a="$1" -v b="$2" "$_DCC_AWK_NAN"' BEGIN { exit nan(a) || nan(b) || !(a + 0 >= b + 0) }'; }
fgt() { awk -v a="$1" -v b="$2" "$_DCC_AWK_NAN"' BEGIN { exit nan(a) || nan(b) || !(a + 0 > b + 0) }'; }
fle() { awk -v a="$1" -v b="$2" "$_DCC_AWK_NAN"' BEGIN { exit nan(a) || nan(b) || !(a + 0 <= b + 0) }'; }
flt() { awk -v a="$1" -v b="$2" "$_DCC_AWK_NAN"' BEGIN { exit nan(a) || nan(b) || !(a + 0 < b + 0) }'; }
fcalc() { awk "BEGIN { printf \"%.6g\n\", ($*) }"; }
fround() { awk "BEGIN { printf \"%.${2:-2}f\n\", ($1) }"; }

# ---- ftrace ---------------------------------------------------------------------
# trace_reset KB: empty the ftrace buffer and give it KB kB per CPU.  Every
# test that counts events sizes the buffer itself: the size is global and
# outlives the test that set it, and a never-used buffer is a 7 kB stub
# (~100 events), so what an earlier test left must not decide a count.
trace_reset() {
	echo "$1" >/sys/kernel/tracing/buffer_size_kb
	echo >/sys/kernel/tracing/trace
}

# ---- dmesg ----------------------------------------------------------------------
DCC_DMESG_BAD='WARNING:|BUG:|Oops|general protection|Call Trace|UBSAN|KASAN|kmemleak|refcount_t'
_DCC_DMESG_MARK=

dmesg_mark() { _DCC_DMESG_MARK=$(dmesg 2>/dev/null | wc -l); }

# dcc_shared_reset: empty dcc_lib's shared tables and RTT_ref (its
# write-only shared_reset), when dcc_lib is loaded; a test's scenarios then
# start as after a boot, whatever ran before them in the guest
dcc_shared_reset() {
	local f=/sys/module/dcc_lib/parameters/shared_reset
	[[ -e $f ]] || return 0
	echo 1 >"$f" 2>/dev/null || log_warn "dcc_lib refused shared_reset"
}

check_dmesg_clean() {
	local from=1 bad
	[[ ${1:-} != all && -n $_DCC_DMESG_MARK ]] && from=$((_DCC_DMESG_MARK + 1))
	bad=$(dmesg 2>/dev/null | tail -n +"$from" | grep -a -E "$DCC_DMESG_BAD")
	if [[ -n $bad ]]; then
		sed 's/^/# dmesg: /' <<<"$bad" | head -n 60
		return 1
	fi
	return 0
}

# ---- cleanup ----------------------------------------------------------------------
_DCC_EXIT_CMDS=()
_dcc_run_exit() {
	local rc=$? i
	trap - EXIT
	for ((i = ${#_DCC_EXIT_CMDS[@]} - 1; i >= 0; i--)); do
		eval "${_DCC_EXIT_CMDS[i]}" || true
	done
	exit "$rc"
}
dcc_on_exit() {
	_DCC_EXIT_CMDS+=("$*")
	trap _dcc_run_exit EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# ---- namespaces ---------------------------------------------------------

# dcc_ns_pair A B ADDR_A ADDR_B [DEV_A DEV_B]: new network namespaces A and B
# joined by one veth (DEV_A, default va, in A; DEV_B, default vb, in B),
# ADDR/24 on each end, both ends and both loopbacks up.
dcc_ns_pair() {
	local a=$1 b=$2 ia=$3 ib=$4 da=${5:-va} db=${6:-vb}
	printf '%s\n' "netns add $a" "netns add $b" \
		"link add $da netns $a type veth peer name $db netns $b" | ip -b - || return 1
	printf '%s\n' "addr add $ia/24 dev $da" "link set $da up" "link set lo up" |
		ip -n "$a" -b - || return 1
	printf '%s\n' "addr add $ib/24 dev $db" "link set $db up" "link set lo up" |
		ip -n "$b" -b -
}

# ---- module parameters --------------------------------------------------

param_write_refused() { # MOD PARAM VALUE
	local p=/sys/module/$1/parameters/$2 old
	old=$(cat "$p")
	if echo "$3" >"$p" 2>/dev/null; then
		log_info "$1 $2=$3 was accepted"
		return 1
	fi
	[[ $(cat "$p") == "$old" ]] || { log_info "$1 $2 changed $old -> $(cat "$p")"; return 1; }
}

ktap_params_refused() { # MOD "PARAM VALUE"...
	local mod=$1 bad all=1
	shift
	for bad in "$@"; do
		# shellcheck disable=SC2086 # (PARAM VALUE: two words)
		param_write_refused "$mod" $bad || all=0
	done
	ktap_test_result "$# out-of-range/garbage $mod parameter writes refused, values unchanged" [ $all = 1 ]
}

ktap_load_refused() { # MOD PARAM=VALUE
	if modprobe -r "$1" && ! modprobe "$1" "$2" 2>/dev/null && modprobe "$1"; then
		ktap_test_pass "modprobe $1 $2 (out of range) fails"
	else
		ktap_test_fail "modprobe $1 $2 (out of range) fails"
		modprobe "$1" 2>/dev/null
	fi
}
