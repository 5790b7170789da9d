#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Selection by the system default, for every name dcc registers: the
# initial namespace's net.ipv4.tcp_congestion_control set to NAME, then a
# NEW client and server namespace, which inherit it (the default is then
# put back: the namespaces keep NAME).  Sockets take the default when
# created, before the handshake, so the stack may call cong_control on the
# handshake's ACK before init.  SEL_N short connections per name with no
# setsockopt, getsockopt on both ends; nothing left behind afterwards
# (select_common.sh), and every module reference the namespaces' defaults
# held is dropped when they are deleted.
# Refusals leave state unchanged: an unknown name as the default (initial
# and child namespace) or in tcp_allowed_congestion_control is refused with
# ENOENT and the old value stays; setsockopt of an unknown name on a socket
# running a dcc CC fails with ENOENT and the socket keeps it.  (A child
# namespace's default is never set to a name that is not allowed: Linux 6.1
# leaks a module reference on that EPERM.)
source "$(dirname "$0")/select_common.sh"

sel_require
ktap_set_plan $((2 * ${#SEL_NAMES[@]} + 7))
dmesg_mark

DEF=/proc/sys/net/ipv4/tcp_congestion_control
ALLOWED=/proc/sys/net/ipv4/tcp_allowed_congestion_control
orig_def=$(<$DEF)
orig_allowed=$(<$ALLOWED)
# setting a default also marks it allowed: put both back
dcc_on_exit "echo '$orig_def' >$DEF; echo '$orig_allowed' >$ALLOWED"
log_info "initial namespace: default $orig_def, allowed '$orig_allowed'; $SEL_N connections per name"

declare -A ref_start=()
for m in "${SEL_MODS[@]}"; do ref_start[$m]=$(<"/sys/module/$m/refcnt"); done
k=0
for n in "${SEL_NAMES[@]}"; do
	C=seldc$$-$k S=selds$$-$k
	k=$((k + 1))
	echo "$n" >$DEF
	sel_ns_create "$C" "$S"
	rc=$?
	echo "$orig_def" >$DEF
	if ((rc)); then
		ktap_test_fail "default-netns $n: namespaces created"
		ktap_test_skip "default-netns $n: nothing left behind (no namespaces)"
		sel_ns_delete "$C" "$S"
		continue
	fi
	log_debug "$C default $(ip netns exec "$C" sysctl -n net.ipv4.tcp_congestion_control)"
	sel_check default-netns "$n" "$C" "$S"
	sel_ns_delete "$C" "$S"
done

# the namespaces' default references are gone with the namespaces
bad=()
for m in "${SEL_MODS[@]}"; do
	v=$(sel_wait_refcnt "$m" "${ref_start[$m]}")
	[[ $v == "${ref_start[$m]}" ]] || bad+=("$m ${ref_start[$m]} -> $v")
done
ktap_test_result "namespaces deleted: every dcc module's refcnt back to its start value${bad:+ (not: ${bad[*]})}" \
	[ ${#bad[@]} = 0 ]

# refused: unknown names leave the defaults and the allowed list as they were
refused() { # FILE [NETNS]: write an unknown name, want ENOENT, value kept
	local f=$1 ns=${2:-} before after err
	if [[ -n $ns ]]; then
		before=$(ip netns exec "$ns" cat "$f")
		err=$(ip netns exec "$ns" bash -c "echo dcc_no_such_cc >$f" 2>&1)
		after=$(ip netns exec "$ns" cat "$f")
	else
		before=$(<"$f")
		err=$( (echo dcc_no_such_cc >"$f") 2>&1)
		after=$(<"$f")
	fi
	log_debug "$f: $err"
	[[ $err == *"No such file or directory"* && $before == "$after" ]] ||
		{ log_info "$f${ns:+ in $ns}: '$err', '$before' -> '$after'"; return 1; }
}
ktap_test_result "initial namespace: default 'dcc_no_such_cc' refused (ENOENT), stays $orig_def" refused $DEF

last=${SEL_NAMES[-1]}
C=seldc$$-r S=selds$$-r
echo "$last" >$DEF
sel_ns_create "$C" "$S"
echo "$orig_def" >$DEF
ktap_test_result "child namespace: default 'dcc_no_such_cc' refused (ENOENT), stays $last" refused $DEF "$C"
ktap_test_result "tcp_allowed_congestion_control with 'dcc_no_such_cc' refused (ENOENT), list unchanged" refused $ALLOWED
for when in before after; do
	out=$("$SEL_CONN" short --client-ns "$C" --server-ns "$S" --addr "$SEL_ADDR" \
		--port "$SEL_PORT" -n 20 --cc dcc_no_such_cc --when "$when" --refuse ENOENT \
		--expect "$last" 2>&1)
	if [[ $? == 0 ]]; then
		ktap_test_pass "setsockopt $when the handshake of an unknown name on $last sockets (namespace default): ENOENT, client and server keep $last"
	else
		ktap_test_fail "setsockopt $when the handshake of an unknown name on $last sockets: ENOENT, they keep $last"
		sed 's/^/#   /' <<<"$out" | head -n 8
	fi
done
sel_ns_delete "$C" "$S"
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
