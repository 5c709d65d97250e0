package io.editlock.lock.redis;

/**
 * What renew_socket_locks answered for one configurator: how many leases of the socket it renewed,
 * and whether the socket keeps anything there at all (a lock, a place in a line, a take-over request).
 */
public record SocketRenewal(int renewed, boolean keeps) {}
