#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run each unit-test binary and merge their TAP into one TAP 13 stream:
# one top-level test point per binary, the binary's own test points as an
# indented subtest block.  The binaries' "# " diagnostics are printed at the
# top level (prefixed with the binary's name, not indented) so that
# summaries and failure context show up where tools/check greps '^# '.
# Continues past failures;
# exits 1 if any binary failed (a failing subtest, a sanitizer abort, or
# no plan).
set -u
nb=$#
i=0 failed=0 subtests=0 subfailed=0 subtodo=0
t_all=$(date +%s%N)
echo "TAP version 13"
echo "1..$nb"
for bin in "$@"; do
	i=$((i + 1))
	name=$(basename "$bin")
	echo "# Subtest: $name"
	t0=$(date +%s%N)
	n_ok=0 n_fail=0 n_todo=0 plan=0 rc=missing
	while IFS= read -r line; do
		case "$line" in
		"TAP version"* | "") continue ;;
		__rc=*) rc=${line#__rc=}; continue ;;
		"ok "*) n_ok=$((n_ok + 1)) ;;
		"not ok "*"# TODO"*) n_todo=$((n_todo + 1)) ;;
		"not ok "*) n_fail=$((n_fail + 1)) ;;
		1..*) plan=1 ;;
		esac
		case "$line" in
		"# "*) printf '# %s: %s\n' "$name" "${line#\# }" ;;
		*"runtime error"* | *"ERROR: AddressSanitizer"* | *"ERROR: LeakSanitizer"* | "SUMMARY: "*)
			# sanitizer reports: also at the top level
			printf '    %s\n# %s: %s\n' "$line" "$name" "$line" ;;
		*) printf '    %s\n' "$line" ;;
		esac
	done < <("$bin" 2>&1; printf '\n__rc=%d\n' "$?")
	ms=$((($(date +%s%N) - t0) / 1000000))
	subtests=$((subtests + n_ok + n_fail + n_todo))
	subfailed=$((subfailed + n_fail))
	subtodo=$((subtodo + n_todo))
	desc="$name ($((n_ok + n_fail + n_todo)) subtests, $n_fail failed, $n_todo todo, ${ms} ms)"
	if [[ $rc == 0 && $n_fail == 0 && $plan == 1 ]]; then
		echo "ok $i - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $i - $desc, exit status $rc"
	fi
done
ms=$((($(date +%s%N) - t_all) / 1000000))
echo "# unit: $((nb - failed))/$nb binaries passed; $subtests subtests, $subfailed failed, $subtodo todo (known limitations); ${ms} ms"
[[ $failed == 0 ]]
