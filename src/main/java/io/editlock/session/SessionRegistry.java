package io.editlock.session;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sockets of this node, by socket, by user (for {@code lock-lost}) and by watched configurator
 * (the rooms that broadcasts go to). Node-local: other nodes' sockets are reached through pub/sub.
 */
@ApplicationScoped
public class SessionRegistry {

    private final Map<String, SocketSession> bySocket = new ConcurrentHashMap<>();
    private final Map<String, Set<SocketSession>> byUser = new ConcurrentHashMap<>();
    private final Map<Long, Set<SocketSession>> rooms = new ConcurrentHashMap<>();

    public void add(SocketSession session) {
        bySocket.put(session.socketId(), session);
        byUser.computeIfAbsent(session.identity().userId(), id -> ConcurrentHashMap.newKeySet()).add(session);
    }

    public void remove(SocketSession session) {
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
        rooms.computeIfAbsent(configuratorId, id -> ConcurrentHashMap.newKeySet()).add(session);
        return added;
    }

    public void unwatch(SocketSession session, long configuratorId) {
        session.watched().remove(configuratorId);
        rooms.computeIfPresent(configuratorId, (id, sessions) -> {
            sessions.remove(session);
            return sessions.isEmpty() ? null : sessions;
        });
    }

    public Collection<SocketSession> watchers(long configuratorId) {
        Set<SocketSession> room = rooms.get(configuratorId);
        return room == null ? List.of() : room;
    }

    public Collection<SocketSession> socketsOf(String userId) {
        Set<SocketSession> sessions = byUser.get(userId);
        return sessions == null ? List.of() : sessions;
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
        return bySocket.values().stream().filter(session -> session.connection().transport().equals(transport)).count();
    }

    public int size() {
        return bySocket.size();
    }
}
