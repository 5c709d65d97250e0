package io.editlock.socketio;

import io.quarkus.websockets.next.UserData;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The user data of a Socket.IO socket, kept as websockets-next keeps a connection's. */
final class SocketUserData implements UserData {

    private final Map<String, Object> values = new ConcurrentHashMap<>();

    @Override
    @SuppressWarnings("unchecked")
    public <VALUE> VALUE get(TypedKey<VALUE> key) {
        return (VALUE) values.get(key.value());
    }

    @Override
    @SuppressWarnings("unchecked")
    public <VALUE> VALUE put(TypedKey<VALUE> key, VALUE value) {
        return (VALUE) values.put(key.value(), value);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <VALUE> VALUE remove(TypedKey<VALUE> key) {
        return (VALUE) values.remove(key.value());
    }

    @Override
    public int size() {
        return values.size();
    }

    @Override
    public void clear() {
        values.clear();
    }
}
