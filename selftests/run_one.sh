#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_one.sh SECONDS TEST: run one kselftest script (make run_tests' runner)
# with a time limit; on the limit, print what the test was waiting for
# before killing it, so that a TIMEOUT in a CI log can be diagnosed from
# that log alone: every user process of the guest (state, kernel wait channel,
# age), the kernel stack of each of the test's processes and of any in
# uninterruptible sleep, and the tail of dmesg.  Then SIGTERM to the test's
# process group, SIGKILL 10 s later.  Exit: the test's status, 124 on the
# limit (as timeout(1)), 2 on bad usage.
usage() { echo "usage: run_one.sh SECONDS TEST" >&2; exit 2; }
if (($# != 2)) || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then usage; fi
secs=$1 t=$2
[[ -x $t ]] || { echo "run_one.sh: $t: not found or not executable" >&2; exit 2; }
[[ $t == */* ]] || t=./$t

dump_state() { # PGID: what the test waits for
	local p s st pg
	echo "run_one.sh: $t still running after $secs s; its state:"
	ps -eo pid,ppid,pgid,stat,wchan:32,etimes,args |
		awk '$1 != 2 && $2 != 2' | cut -c1-200	# no kernel threads; short lines
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		s=$(cat "/proc/$p/stat" 2>/dev/null) || continue
		read -r st _ pg _ <<<"${s##*) }"	# after the command's name
		[[ $pg == "$1" || $st == D ]] || continue
		echo "--- kernel stack of $p ($st): $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-120)"
		cat "/proc/$p/stack" 2>/dev/null
	done
	echo "--- dmesg (last 20 lines)"
	dmesg 2>/dev/null | tail -n 20
}

# the test in a session (and process group) of its own: setsid execs in
# place here (a background child is no group leader), so $! is its id
setsid "$t" &
pid=$!
sleep "$secs" &
sl=$!
wait -n "$pid" "$sl"
if kill -0 "$pid" 2>/dev/null && ! kill -0 "$sl" 2>/dev/null; then
	dump_state "$pid" 2>&1 | sed 's/^/# /'
	kill -TERM -- "-$pid" 2>/dev/null
	for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL -- "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	exit 124
fi
kill "$sl" 2>/dev/null
wait "$pid"
