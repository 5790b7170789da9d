#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Selection by setsockopt(TCP_CONGESTION), for every name dcc registers:
# before the handshake (client before connect(), listener before listen(),
# so the accepted socket inherits it) and after it (client after connect(),
# accepted socket after accept()).  Before the handshake the stack may call
# cong_control on the handshake's ACK before init; after it, the socket is
# switched from the namespace default (init on an established socket).
# SEL_N short connections (2 KB each way) per name and path; then nothing
# may be left behind: kmalloc caches, module references, live counters
# (select_common.sh).  An unknown name is refused with ENOENT and the
# socket keeps its CC, on either side, before and after the handshake.
source "$(dirname "$0")/select_common.sh"

sel_require
ktap_set_plan $((4 * ${#SEL_NAMES[@]} + 3))
dmesg_mark

C=selc$$ S=sels$$
dcc_on_exit sel_ns_delete "$C" "$S"
sel_ns_create "$C" "$S" || ktap_skip_all "cannot create the namespaces"
log_info "$SEL_N connections per name and path, $SEL_CADDR ($C) -> $SEL_ADDR ($S), plain veth"

for when in before after; do
	for n in "${SEL_NAMES[@]}"; do
		sel_check "sockopt-$when" "$n" "$C" "$S" --cc "$n" --when "$when"
	done
done

# refused: an unknown name, ENOENT, the socket keeps the namespace default
def=$(ip netns exec "$C" sysctl -n net.ipv4.tcp_congestion_control)
for when in before after; do
	out=$("$SEL_CONN" short --client-ns "$C" --server-ns "$S" --addr "$SEL_ADDR" \
		--port "$SEL_PORT" -n 20 --cc dcc_no_such_cc --when "$when" --refuse ENOENT \
		--expect "$def" 2>&1)
	if [[ $? == 0 ]]; then
		ktap_test_pass "setsockopt $when the handshake of an unknown name: ENOENT on client and server side, both keep $def (20 connections)"
	else
		ktap_test_fail "setsockopt $when the handshake of an unknown name: ENOENT, sockets keep $def"
		sed 's/^/#   /' <<<"$out" | head -n 8
	fi
done
ktap_test_result "no kernel warnings" check_dmesg_clean
ktap_finished
