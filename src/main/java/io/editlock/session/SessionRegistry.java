package io.editlock.session;

import io.editlock.limits.OpenSockets;
import io.editlock.lock.Lock;
import io.editlock.lock.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * The sockets of this node, by socket, by user (for {@code lock-lost}) and by watched configurator
 * (the rooms that broadcasts go to). Node-local: other nodes' sockets are reached through pub/sub.
 */
@ApplicationScoped
public class SessionRegistry implements OpenSockets {

    private final Map<String, SocketSession> bySocket = new ConcurrentHashMap<>();
    private final Map<String, Set<SocketSession>> byUser = new ConcurrentHashMap<>();
    private final Map<Long, Set<SocketSession>> rooms = new ConcurrentHashMap<>();
    private final ShownLocks shown;

    public SessionRegistry(ShownLocks shown) {
        this.shown = shown;
    }

    public void add(SocketSession session) {
        bySocket.put(session.socketId(), session);
        // A user has a few sockets at most: a copy-on-write set costs each user well under half of a
        // concurrent hash set, and lookups read a snapshot.
        byUser.compute(session.identity().userId(), (id, sessions) -> {
            Set<SocketSession> current = sessions == null ? new CopyOnWriteArraySet<>() : sessions;
            current.add(session);
            return current;
        });
    }

    public void remove(SocketSession session) {
        session.markRemoved(); // before the snapshot of what it watches: see watch
        bySocket.remove(session.socketId());
        byUser.computeIfPresent(session.identity().userId(), (id, sessions) -> {
            sessions.remove(session);
            return sessions.isEmpty() ? null : sessions;
        });
        session.watched().forEach(configuratorId -> unwatch(session, configuratorId));
    }

    public Optional<SocketSession> find(String socketId) {
        return Optional.ofNullable(bySocket.get(socketId));
    }

    /** @return true if the socket did not watch the configurator before */
    public boolean watch(SocketSession session, long configuratorId) {
        boolean added = session.watched().add(configuratorId);
        // Added inside compute: unwatch drops a room that became empty in the same atomic step, so an
        // add after computeIfAbsent returned could land in a room already dropped, and go unheard.
        rooms.compute(configuratorId, (id, sessions) -> {
            Set<SocketSession> room = sessions == null ? ConcurrentHashMap.newKeySet() : sessions;
            room.add(session);
            return room;
        });
        if (session.removed()) {
            // Removed meanwhile (a grant handed over by an event as the socket closed): remove() took a
            // snapshot of what it watched that may not hold this room, and nothing would ever leave it.
            unwatch(session, configuratorId);
        }
        return added;
    }

    public void unwatch(SocketSession session, long configuratorId) {
        session.watched().remove(configuratorId);
        rooms.computeIfPresent(configuratorId, (id, sessions) -> {
            sessions.remove(session);
            if (!sessions.isEmpty()) {
                return sessions;
            }
            shown.forget(id);
            return null;
        });
    }

    /**
     * Joins the room of the configurator a lock request is for, before the store decides it, so that
     * the socket hears the change its own grant makes (docs/protocol.md §4: a socket that locks
     * anything in a configurator also watches it).
     *
     * @param resolved a resource whose configurator is known
     */
    public LockRoom joinForLock(SocketSession session, Resource resolved) {
        long configuratorId = resolved.configuratorId();
        return new LockRoom(session, configuratorId, watch(session, configuratorId));
    }

    /** The room of one lock request: kept when granted, left again when not and not watched before. */
    public final class LockRoom {
        private final SocketSession session;
        private final long configuratorId;
        private final boolean newlyJoined;

        private LockRoom(SocketSession session, long configuratorId, boolean newlyJoined) {
            this.session = session;
            this.configuratorId = configuratorId;
            this.newlyJoined = newlyJoined;
        }

        /**
         * Left again, unless the socket came to hold something there meanwhile (a grant from a line or a
         * take-over, {@link #keepsGrant}) or the client asked to watch it.
         */
        public void notGranted() {
            if (!newlyJoined) {
                return;
            }
            synchronized (session.roomDecisions()) {
                boolean holds = session.heldLocksIfAny()
                        .map(held -> held.anyIn(configuratorId))
                        .orElse(false);
                if (!holds && !session.askedToWatch().contains(configuratorId)) {
                    unwatch(session, configuratorId);
                }
            }
        }
    }

    /**
     * A socket keeps a grant it did not ask for by a lock request of its own (a line served it, a
     * take-over was handed to it): its client holds the lock, and it watches the configurator (§4).
     */
    public void keepsGrant(SocketSession session, Lock lock) {
        synchronized (session.roomDecisions()) {
            session.heldLocks().granted(lock);
            watch(session, lock.resource().configuratorId());
        }
    }

    /**
     * Idleness is the user's, not the socket's (docs/protocol.md §6: "a user who has sent nothing"):
     * a request in one tab keeps the locks of the user's quiet tabs on this node too.
     */
    public void markActive(SocketSession session) {
        socketsOf(session.identity().userId()).forEach(SocketSession::markActive);
    }

    public Collection<SocketSession> watchers(long configuratorId) {
        Set<SocketSession> room = rooms.get(configuratorId);
        return room == null ? List.of() : room;
    }

    public Collection<SocketSession> socketsOf(String userId) {
        Set<SocketSession> sessions = byUser.get(userId);
        return sessions == null ? List.of() : sessions;
    }

    @Override
    public int openBy(String userId) {
        return socketsOf(userId).size();
    }

    public Collection<SocketSession> all() {
        return bySocket.values();
    }

    /** Configurators watched by at least one socket of this node. */
    public Set<Long> watchedConfigurators() {
        return rooms.keySet();
    }

    /** Sockets of one transport ({@link ClientConnection#transport()}). */
    public long count(String transport) {
        return bySocket.values().stream()
                .filter(session -> session.connection().transport().equals(transport))
                .count();
    }

    public int size() {
        return bySocket.size();
    }
}
