package io.editlock.lock;

/** Who asks for a lock: the user (from the token) and the socket, on its node, that will keep it. */
public record Holder(String userId, String userName, String socketId, String nodeId) {}
