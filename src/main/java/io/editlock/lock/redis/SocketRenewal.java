package io.editlock.lock.redis;

import java.util.List;

/**
 * What renew_socket_locks answered for one configurator: how many leases of the socket it renewed,
 * whether the socket keeps anything there at all (a lock, a place in a line, a take-over request), and
 * the lock fields of the grants its client was told of that the store does not have.
 */
public record SocketRenewal(int renewed, boolean keeps, List<String> missing) {}
