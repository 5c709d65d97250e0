package io.editlock.lock;

/**
 * A lock that was released, why, and the socket whose own request released it (it learns from its
 * reply; every other socket of the holder gets {@code lock-lost}). {@code exceptSocketId} is empty
 * when no request of the holder caused it.
 */
public record ReleasedLock(Lock lock, ReleaseReason reason, String exceptSocketId) {}
