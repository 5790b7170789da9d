#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh deps                 make sure clang + libFuzzer work (apt if not)
# fuzz.sh run SECONDS BINARY...
#                              run each fuzzer for SECONDS; one TAP test
#                              point per binary on stdout, exit 1 if any
#                              failed
#
# A target build/fuzz_X starts from the seeds in corpus/X/ (read-only, kept
# in git) plus what earlier runs found in build/fuzz-corpus/fuzz_X/
# (written; not in git).  Its log is build/fuzz_X.log; crashes land in
# build/fuzz-artifacts/fuzz_X/.
set -u
cd "$(dirname "$0")"

libfuzzer_works() {
	command -v clang >/dev/null 2>&1 || return 1
	local t
	t=$(mktemp -d) || return 1
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
		>"$t/t.c"
	clang -fsanitize=fuzzer,address,undefined "$t/t.c" -o "$t/t" >/dev/null 2>&1
	local rc=$?
	rm -rf "$t"
	return $rc
}

deps() {
	libfuzzer_works && return 0
	local sudo=
	[[ $(id -u) == 0 ]] || sudo=sudo
	echo "# fuzz: installing clang and libclang-rt-14-dev (apt)"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get install -y -q clang libclang-rt-14-dev ||
		{ $sudo apt-get update -q &&
		  $sudo apt-get install -y -q clang libclang-rt-14-dev; } || return 1
	libfuzzer_works
}

# One target: BINARY for SECONDS; test point number N on stdout.
run_one() {
	local n=$1 bin=$2 secs=$3 name rc
	name=$(basename "$bin")
	local seeds=corpus/${name#fuzz_} found=build/fuzz-corpus/$name
	local log=build/$name.log arts=build/fuzz-artifacts/$name/
	mkdir -p "$found" "$arts"
	local budget=-max_total_time=$secs
	# libFuzzer reads 0 as "forever": 0 s only replays the corpus
	[[ $secs -gt 0 ]] 2>/dev/null || budget=-runs=0
	"$bin" "$budget" -timeout=10 -rss_limit_mb=2048 \
		-max_len=4096 -print_final_stats=1 \
		-artifact_prefix="$arts" \
		"$found" "$seeds" >"$log" 2>&1
	rc=$?
	local execs eps cov ft corp
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
	corp=$(grep -o 'corp: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
	echo "# $name: ${secs}s, ${execs:-?} execs (${eps:-?} exec/s), cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?} inputs"
	if [[ $rc == 0 ]]; then
		echo "ok $n - $name (${secs} s, ${execs:-?} execs, ${eps:-?} exec/s, cov ${cov:-?})"
		return 0
	fi
	# the failure, our frames of the stack, and where the input went
	grep -E 'assertion failed|runtime error|ERROR: |SUMMARY|Test unit written| in [^ ]+ [^ ]*(selftests/unit|dcc_lib|modules)/' "$log" |
		head -n 30 | sed 's/^/# /'
	echo "not ok $n - $name (exit $rc; log selftests/unit/$log; reproduce: $bin ARTIFACT)"
	return 1
}

# Every target in turn, SECONDS each; exit status 1 if any failed.
run() {
	local secs=$1 n=0 failed=0 bin
	shift
	echo "TAP version 13"
	echo "1..$#"
	for bin in "$@"; do
		n=$((n + 1))
		run_one "$n" "$bin" "$secs" || failed=1
	done
	return $failed
}

case "${1:-}" in
deps) deps ;;
run) shift; [[ $# -ge 2 ]] || { echo "usage: $0 run SECONDS BINARY..." >&2; exit 2; }
	run "$@" ;;
*) echo "usage: $0 deps | run SECONDS BINARY..." >&2; exit 2 ;;
esac
