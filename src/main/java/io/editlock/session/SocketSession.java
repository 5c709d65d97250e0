package io.editlock.session;

import io.editlock.auth.Identity;
import io.editlock.lock.Holder;
import io.vertx.core.Context;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.function.Consumer;

/**
 * What this node knows of one open socket: who it is, what it watches, when it was last active and
 * last answered a ping. Mutable fields are read by the sweeper and renewer threads, hence volatile.
 * A node holds tens of thousands of these, mostly idle: every field counts (docs/benchmarks.md, memory).
 */
public final class SocketSession {

    private static final AtomicLongFieldUpdater<SocketSession> UNSENT =
            AtomicLongFieldUpdater.newUpdater(SocketSession.class, "unsentChars");
    /** The value of {@link #early} once the welcome went out: from then on nothing is held. */
    private static final List<String> WELCOMED = Collections.unmodifiableList(new ArrayList<>());

    private final ClientConnection connection;
    private final Identity identity;
    private final String resumeToken;
    private final Holder holder;
    private final Set<Long> watched = new WatchedSet();
    /** Of those, the ones the client asked to watch: only these count against the watch limit (docs/protocol.md §4). */
    private final Set<Long> asked = new WatchedSet();

    private volatile long lastActivityNanos = System.nanoTime();
    /** When this socket last told the store that its user is active ({@link UserActivity}). */
    private volatile long sharedActivityNanos = System.nanoTime();

    private volatile long lastPongNanos = System.nanoTime();
    private volatile long requestSinceNanos;
    private volatile boolean requestInHand;
    /** Completed when the request in hand is answered; made only when something waits for that (a close). */
    private CompletableFuture<Void> requestAnswered;
    /** When its token ends (epoch millis); until the socket is set up, never. */
    private volatile long tokenEndsAtMillis = Long.MAX_VALUE;
    /** Characters written to the socket and not yet handed to the network. */
    private volatile long unsentChars;
    /**
     * The socket is in the registry, and so gets its user's events, before its welcome is sent; what
     * comes meanwhile waits here, so that welcome is its first frame (docs/protocol.md §4). Null while
     * nothing waits, {@link #WELCOMED} after. Changed only under the session's lock.
     */
    private volatile List<String> early;

    /** What its client was told it holds; null until its first grant (most sockets only watch). */
    private volatile HeldLocks held;
    /**
     * Held while a room is kept or left for a lock: a grant from a line or a take-over, and a lock
     * request refused at the same moment, must not leave the socket holding a lock outside its room.
     */
    private final Object roomDecisions = new Object();

    private volatile boolean mayKeepLocks;
    private volatile boolean resumable;
    private volatile boolean closedByServer;
    private volatile boolean removed;
    /** The event loop the socket's I/O runs on, and its thread; known from its first message on that loop. */
    private volatile Context eventLoop;

    private volatile Thread eventLoopThread;

    public SocketSession(ClientConnection connection, Identity identity, String nodeId, String resumeToken) {
        this.connection = connection;
        this.identity = identity;
        this.resumeToken = resumeToken;
        this.holder = new Holder(identity.userId(), identity.userName(), connection.id(), nodeId);
    }

    public String socketId() {
        return connection.id();
    }

    public ClientConnection connection() {
        return connection;
    }

    /** Notes the socket's event-loop context, when called on it (a message handler). */
    public void bindEventLoop(Context current) {
        if (eventLoop == null && current != null && current.isEventLoopContext()) {
            eventLoopThread = Thread.currentThread();
            eventLoop = current;
        }
    }

    /** Empty until the socket has sent a message. */
    public Optional<Context> eventLoop() {
        return Optional.ofNullable(eventLoop);
    }

    /** The thread of {@link #eventLoop()}, which sockets share; null until the socket has sent a message. */
    public Thread eventLoopThread() {
        return eventLoop == null ? null : eventLoopThread;
    }

    /** @return the characters written and not yet handed to the network, after adding {@code delta} */
    public long addUnsent(long delta) {
        return UNSENT.addAndGet(this, delta);
    }

    public long unsent() {
        return unsentChars;
    }

    /** @return whether the frame was kept for later, because the socket's welcome has not gone out yet */
    boolean holdUntilWelcome(String frame) {
        if (early == WELCOMED) {
            return false;
        }
        synchronized (this) {
            if (early == WELCOMED) {
                return false;
            }
            List<String> held = early == null ? new ArrayList<>(2) : early;
            held.add(frame);
            early = held;
            return true;
        }
    }

    /**
     * Hands {@code write} the welcome and then every frame held for it, in order, while frames sent
     * meanwhile wait for the lock: each is held and written here, or written after all of these.
     */
    synchronized void welcome(String frame, Consumer<String> write) {
        write.accept(frame);
        if (early != null) {
            early.forEach(write);
        }
        early = WELCOMED;
    }

    public Identity identity() {
        return identity;
    }

    public String resumeToken() {
        return resumeToken;
    }

    public Holder holder() {
        return holder;
    }

    public Set<Long> watched() {
        return watched;
    }

    /** The configurators the client asked to watch, not those it watches because it locked something there. */
    public Set<Long> askedToWatch() {
        return asked;
    }

    public void markActive() {
        lastActivityNanos = System.nanoTime();
    }

    public long idleNanos() {
        return System.nanoTime() - lastActivityNanos;
    }

    /** The user was active elsewhere this long ago: the socket counts as active since then, if that is later. */
    public void markActiveAgo(long nanosAgo) {
        long then = System.nanoTime() - nanosAgo;
        if (then - lastActivityNanos > 0) {
            lastActivityNanos = then;
        }
    }

    /** @return whether this socket should tell the store of its user's activity now (and from now, not again for a while) */
    boolean shareActivityDue(long everyNanos) {
        long now = System.nanoTime();
        if (now - sharedActivityNanos < everyNanos) {
            return false;
        }
        sharedActivityNanos = now;
        return true;
    }

    public void markPong() {
        lastPongNanos = System.nanoTime();
    }

    /**
     * A request of the socket is in hand. Its frames are handled one after another, pongs too: those
     * the client sends meanwhile wait behind the request, so the time it takes does not count as
     * silence (a store that does not answer makes each request last its timeout).
     */
    public void requestStarted() {
        requestSinceNanos = System.nanoTime();
        synchronized (this) {
            requestInHand = true;
        }
    }

    /** The request in hand is answered: the ping clock goes on from where it stood when it began. */
    public void requestEnded() {
        long now = System.nanoTime();
        lastPongNanos = Math.min(now, lastPongNanos + (now - requestSinceNanos));
        CompletableFuture<Void> answered;
        synchronized (this) {
            requestInHand = false;
            answered = requestAnswered;
            requestAnswered = null;
        }
        if (answered != null) {
            answered.complete(null);
        }
    }

    /**
     * Whether a request of the socket is in hand. A socket that closes meanwhile is not gone yet: the
     * request may still grant it a lock, which its end must release or keep for a resume.
     */
    public boolean requestInHand() {
        return requestInHand;
    }

    /** Completes once the request in hand (if any) is answered. */
    public synchronized CompletionStage<Void> requestAnswered() {
        if (!requestInHand) {
            return CompletableFuture.completedStage(null);
        }
        if (requestAnswered == null) {
            requestAnswered = new CompletableFuture<>();
        }
        return requestAnswered;
    }

    /** How long the socket has not answered a ping, not counting while a request of it was in hand. */
    public long sincePongNanos() {
        return requestInHand ? 0 : System.nanoTime() - lastPongNanos;
    }

    public long tokenEndsAt() {
        return tokenEndsAtMillis;
    }

    public void tokenEndsAt(long epochMillis) {
        tokenEndsAtMillis = epochMillis;
    }

    /** The locks its client was told it holds (created with the first). */
    public HeldLocks heldLocks() {
        HeldLocks current = held;
        if (current == null) {
            synchronized (this) {
                current = held;
                if (current == null) {
                    current = new HeldLocks();
                    held = current;
                }
            }
        }
        return current;
    }

    /** The lock under which a room is kept or left for a lock (see {@link SessionRegistry#keepsGrant}). */
    Object roomDecisions() {
        return roomDecisions;
    }

    /** The locks its client was told it holds, or empty when it was told of no grant and of no end. */
    public Optional<HeldLocks> heldLocksIfAny() {
        return Optional.ofNullable(held);
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

    /** Out of the registry: it ended, and may join no room again. */
    boolean removed() {
        return removed;
    }

    void markRemoved() {
        removed = true;
    }

    /** The server closed it (ping timeout, shutdown): that end counts as a drop, not a clean close. */
    public boolean closedByServer() {
        return closedByServer;
    }

    public void closedByServer(boolean value) {
        closedByServer = value;
    }

    /**
     * The configurators a socket watches: a few at most (editlock.limits.watches-per-socket), so a
     * copy-on-write array, a few dozen bytes, where a concurrent hash set costs over 200 per socket.
     * Reads see a snapshot; changes are serialised.
     */
    private static final class WatchedSet extends AbstractSet<Long> {

        private static final long[] NONE = new long[0];
        private volatile long[] ids = NONE;

        @Override
        public boolean contains(Object value) {
            return value instanceof Long id && indexOf(ids, id) >= 0;
        }

        @Override
        public synchronized boolean add(Long id) {
            long[] current = ids;
            if (indexOf(current, id) >= 0) {
                return false;
            }
            long[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = id;
            ids = next;
            return true;
        }

        @Override
        public synchronized boolean remove(Object value) {
            long[] current = ids;
            int index = value instanceof Long id ? indexOf(current, id) : -1;
            if (index < 0) {
                return false;
            }
            long[] next = new long[current.length - 1];
            System.arraycopy(current, 0, next, 0, index);
            System.arraycopy(current, index + 1, next, index, next.length - index);
            ids = next.length == 0 ? NONE : next;
            return true;
        }

        @Override
        public int size() {
            return ids.length;
        }

        @Override
        public Iterator<Long> iterator() {
            long[] snapshot = ids;
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < snapshot.length;
                }

                @Override
                public Long next() {
                    if (next >= snapshot.length) {
                        throw new NoSuchElementException();
                    }
                    return snapshot[next++];
                }
            };
        }

        private static int indexOf(long[] ids, long id) {
            for (int i = 0; i < ids.length; i++) {
                if (ids[i] == id) {
                    return i;
                }
            }
            return -1;
        }
    }
}
