package io.editlock.session;

import io.editlock.auth.Identity;
import io.editlock.lock.Holder;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this node knows of one open socket: who it is, what it watches, when it was last active and
 * last answered a ping. Mutable fields are read by the sweeper and renewer threads, hence volatile.
 */
public final class SocketSession {

    private final ClientConnection connection;
    private final Identity identity;
    private final String nodeId;
    private final String resumeToken;
    private final Set<Long> watched = ConcurrentHashMap.newKeySet();
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile long lastPongNanos = System.nanoTime();
    private volatile boolean mayKeepLocks;
    private volatile boolean resumable;
    private volatile boolean closedByServer;
    /** The event loop the socket's I/O runs on; known from its first message on that loop. */
    private volatile ContextInternal eventLoop;

    public SocketSession(ClientConnection connection, Identity identity, String nodeId, String resumeToken) {
        this.connection = connection;
        this.identity = identity;
        this.nodeId = nodeId;
        this.resumeToken = resumeToken;
    }

    public String socketId() {
        return connection.id();
    }

    public ClientConnection connection() {
        return connection;
    }

    /** Notes the socket's event-loop context, when called on it (a message handler). */
    public void bindEventLoop(Context current) {
        if (eventLoop == null && current instanceof ContextInternal internal && internal.isEventLoopContext()) {
            eventLoop = internal;
        }
    }

    /** Empty until the socket has sent a message. */
    public Optional<ContextInternal> eventLoop() {
        return Optional.ofNullable(eventLoop);
    }

    public Identity identity() {
        return identity;
    }

    public String resumeToken() {
        return resumeToken;
    }

    public Holder holder() {
        return new Holder(identity.userId(), identity.userName(), socketId(), nodeId);
    }

    public Set<Long> watched() {
        return watched;
    }

    public void markActive() {
        lastActivityNanos = System.nanoTime();
    }

    public long idleNanos() {
        return System.nanoTime() - lastActivityNanos;
    }

    public void markPong() {
        lastPongNanos = System.nanoTime();
    }

    public long sincePongNanos() {
        return System.nanoTime() - lastPongNanos;
    }

    /** Set before the first lock request: from then on, its end has to release in the store. */
    public boolean mayKeepLocks() {
        return mayKeepLocks;
    }

    public void mayKeepLocks(boolean value) {
        mayKeepLocks = value;
    }

    /** Whether its resume record exists in the store (written once, at its first grant). */
    public boolean resumable() {
        return resumable;
    }

    public void resumable(boolean value) {
        resumable = value;
    }

    /** The server closed it (ping timeout, shutdown): that end counts as a drop, not a clean close. */
    public boolean closedByServer() {
        return closedByServer;
    }

    public void closedByServer(boolean value) {
        closedByServer = value;
    }
}
