package io.editlock.lock.redis;

import java.util.List;
import java.util.Map;

/**
 * What renew_socket_locks answered for one configurator: how many leases of the socket it renewed,
 * whether the socket keeps anything there at all (a lock, a place in a line, a take-over request), the
 * lock fields of the grants its client was told of that the store does not have, and the grants the
 * socket keeps there that its client was not told of (lock field to fencing token; only when its
 * grants were checked).
 */
public record SocketRenewal(int renewed, boolean keeps, List<String> missing, Map<String, Long> untold) {}
