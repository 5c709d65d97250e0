package io.editlock.lock.redis;

/**
 * What renew_socket_locks answered for one configurator: how many leases of the socket it renewed,
 * whether the socket keeps anything there at all (a lock, a place in a line, a take-over request), and
 * whether the store is behind a grant its client was told of (it went back in time).
 */
public record SocketRenewal(int renewed, boolean keeps, boolean behind) {}
