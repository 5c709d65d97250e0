package io.editlock.limits;

import io.quarkus.websockets.next.UserData;
import io.vertx.core.http.HttpConnection;

/**
 * What the limit on unsent bytes (docs/protocol.md §4) needs to know of a socket from its upgrade:
 * its HTTP connection, the only way to end a socket whose close frame cannot get out.
 */
public final class SlowClients {

    /** The socket's HTTP connection, noted at the upgrade. */
    public static final UserData.TypedKey<HttpConnection> TRANSPORT = new UserData.TypedKey<>("editlock.transport");

    private SlowClients() {}
}
