#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh deps                 make sure clang + libFuzzer work (apt if not)
# fuzz.sh run BINARY SECONDS   run the fuzzer; one TAP test point on stdout
#
# The run starts from the seeds in corpus/ (read-only, kept in git) plus
# what earlier runs found in build/fuzz-corpus/ (written; not in git).
# Crashes land in build/fuzz-artifacts/.
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

run() {
	local bin=$1 secs=$2 log=build/fuzz.log rc
	mkdir -p build/fuzz-corpus build/fuzz-artifacts
	echo "TAP version 13"
	echo "1..1"
	local budget=-max_total_time=$secs
	# libFuzzer reads 0 as "forever": 0 s only replays the corpus
	[[ $secs -gt 0 ]] 2>/dev/null || budget=-runs=0
	"$bin" "$budget" -timeout=10 -rss_limit_mb=2048 \
		-max_len=4096 -print_final_stats=1 \
		-artifact_prefix=build/fuzz-artifacts/ \
		build/fuzz-corpus corpus >"$log" 2>&1
	rc=$?
	local execs eps cov ft corp
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
	corp=$(grep -o 'corp: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
	echo "# fuzz_bls: ${secs}s, ${execs:-?} execs (${eps:-?} exec/s), cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?} inputs"
	if [[ $rc == 0 ]]; then
		echo "ok 1 - fuzz_bls (${secs} s, ${execs:-?} execs, ${eps:-?} exec/s, cov ${cov:-?})"
		return 0
	fi
	# the failure, our frames of the stack, and where the input went
	grep -E 'assertion failed|runtime error|ERROR: |SUMMARY|Test unit written| in [^ ]+ [^ ]*(selftests/unit|dcc_lib)/' "$log" |
		head -n 30 | sed 's/^/# /'
	echo "not ok 1 - fuzz_bls (exit $rc; log selftests/unit/$log; reproduce: $bin ARTIFACT)"
	return 1
}

case "${1:-}" in
deps) deps ;;
run) run "$2" "$3" ;;
*) echo "usage: $0 deps | run BINARY SECONDS" >&2; exit 2 ;;
esac
