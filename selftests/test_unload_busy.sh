#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Module unload under load, for every algorithm module of Kbuild's obj-m:
# while UNL_FLOWS flows of one of its names carry data (tbf at 20 Mbit/s on
# the client's veth, so the guest is not flooded), delete_module of the
# module is refused (Linux returns EWOULDBLOCK, i.e. EAGAIN, for a module
# in use; EBUSY is accepted too) and so is dcc_lib's (a module depends on
# it); the module stays loaded and no WARN appears.  After the flows close,
# the refcnt is back to its idle value and the module unloads.  dcc_lib
# unloads last, once no algorithm module is left.  The unload goes through
# dcc_conn (the syscall): rmmod checks the refcount itself and would never
# ask the kernel.  The modules are loaded again at the end.
source "$(dirname "$0")/select_common.sh"

UNL_FLOWS=20
sel_require
mods=()
for m in "${SEL_MODS[@]}"; do
	[[ $m == dcc_lib ]] && continue
	for n in "${SEL_NAMES[@]}"; do
		[[ ${SEL_MOD[$n]} == "$m" ]] && { mods+=("$m:$n"); break; }
	done
done
ktap_set_plan $((3 * ${#mods[@]} + 2))
dmesg_mark

C=selbc$$ S=selbs$$
dcc_on_exit "sel_ns_delete $C $S; for m in ${SEL_MODS[*]}; do modprobe -q \$m; done"
sel_ns_create "$C" "$S" || ktap_skip_all "cannot create the namespaces"
tc -n "$C" qdisc add dev v0 root tbf rate 20mbit burst 20000 latency 50ms ||
	ktap_skip_all "cannot add tbf"
log_info "$UNL_FLOWS flows per module, $SEL_CADDR -> $SEL_ADDR, tbf 20 Mbit/s"

gone() { [[ $1 == ok && ! -d /sys/module/$2 ]]; }
busy_errno() { [[ $1 == EAGAIN || $1 == EWOULDBLOCK || $1 == EBUSY ]]; }

for mn in "${mods[@]}"; do
	m=${mn%%:*} n=${mn#*:}
	idle=$(<"/sys/module/$m/refcnt")
	out=$DCC_OUT/$DCC_TEST_NAME-$n.txt
	: >"$out"
	"$SEL_CONN" many --client-ns "$C" --server-ns "$S" --addr "$SEL_ADDR" --port "$SEL_PORT" \
		-n $UNL_FLOWS -t 2 --warmup 1 --cc "$n" >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 50; i++)); do
		grep -q '^connected' "$out" && break
		sleep 0.1
	done
	sleep 0.5
	live=$(<"/sys/module/$m/refcnt")
	e_mod=$("$SEL_CONN" unload "$m")
	e_lib=$("$SEL_CONN" unload dcc_lib)
	still=0
	[[ -d /sys/module/$m && -d /sys/module/dcc_lib ]] && still=1
	ktap_expect "$m ($n): refcnt with $UNL_FLOWS live flows" "$live" '>' "$idle" '' "the idle refcnt"
	if busy_errno "$e_mod" && busy_errno "$e_lib" && ((still)); then
		ktap_test_pass "$m ($n) with live flows: unload refused ($e_mod), dcc_lib's refused ($e_lib), both still loaded"
	else
		ktap_test_fail "$m ($n) with live flows: unload refused ($e_mod), dcc_lib's refused ($e_lib), still loaded ($still)"
	fi
	wait "$pid"
	rc=$?
	ref=$(sel_wait_refcnt "$m" "$idle")
	e_after=$("$SEL_CONN" unload "$m")
	if ((rc == 0)) && gone "$e_after" "$m"; then
		ktap_test_pass "$m: the flows ran ($(grep -o 'mbit=[0-9.]*' "$out") Mbit/s), closed, refcnt $ref, unloaded"
	else
		ktap_test_fail "$m: flows ran and closed (exit $rc), refcnt $ref (idle $idle), unload after: $e_after"
		sed 's/^/#   /' "$out" | head -n 6
	fi
done
e_lib=$("$SEL_CONN" unload dcc_lib)
ktap_test_result "dcc_lib unloads last, with no algorithm module left ($e_lib)" gone "$e_lib" dcc_lib
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
