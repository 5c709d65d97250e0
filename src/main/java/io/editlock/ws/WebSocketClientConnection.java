package io.editlock.ws;

import io.editlock.session.ClientConnection;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.UserData;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/** A {@code /locking} WebSocket: frames go out as they are. */
public record WebSocketClientConnection(WebSocketConnection connection) implements ClientConnection {

    public static final String TRANSPORT = "websocket";

    @Override
    public String id() {
        return connection.id();
    }

    @Override
    public String transport() {
        return TRANSPORT;
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public UserData userData() {
        return connection.userData();
    }

    @Override
    public Uni<Void> sendText(String frame) {
        return connection.sendText(frame);
    }

    @Override
    public Uni<Void> close(CloseReason reason) {
        return connection.close(reason);
    }
}
