package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.limits.LimitMetrics;
import io.editlock.limits.SlowClients;
import io.editlock.protocol.CloseReasons;
import io.quarkus.websockets.next.UserData;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends every frame a socket gets (replies and broadcasts) and keeps count of what is written but
 * not yet on the wire. A client that does not read fills its TCP window, and what the server writes
 * then waits in the node's memory; beyond {@code editlock.limits.max-unsent-bytes} the socket is
 * closed with 1008 "too slow", a drop (docs/protocol.md §4, §5), instead of being buffered without bound.
 * Sizes are counted in characters, which is the byte count of the ASCII that frames are made of.
 */
@ApplicationScoped
public class FrameSender {

    private static final UserData.TypedKey<AtomicLong> UNSENT = new UserData.TypedKey<>("editlock.unsent-bytes");
    /** How long the close frame gets to reach a slow client before its TCP connection is ended. */
    private static final long CLOSE_FRAME_WAIT_MS = 1000;

    private final SessionLifecycle lifecycle;
    private final Vertx vertx;
    private final LimitMetrics metrics;
    private final long maxUnsent;

    public FrameSender(SessionLifecycle lifecycle, Vertx vertx, LimitMetrics metrics, EditlockConfig config) {
        this.lifecycle = lifecycle;
        this.metrics = metrics;
        this.vertx = vertx;
        this.maxUnsent = config.limits().maxUnsentBytes();
    }

    public void send(SocketSession session, String frame) {
        if (!session.connection().isOpen()) {
            return;
        }
        AtomicLong unsent = unsent(session);
        long size = frame.length();
        if (unsent.addAndGet(size) > maxUnsent) {
            unsent.addAndGet(-size);
            if (!session.closedByServer()) {
                tooSlow(session);
            }
            return;
        }
        session.connection().sendText(frame).subscribe().with(
                ignored -> unsent.addAndGet(-size),
                failure -> unsent.addAndGet(-size));
    }

    /**
     * Closes with 1008; the close frame waits behind everything the client did not read, and the
     * closing handshake would wait for the client, so the TCP connection is ended shortly after.
     */
    private void tooSlow(SocketSession session) {
        metrics.refused(LimitMetrics.Limit.UNSENT);
        lifecycle.closeByServer(session, CloseReasons.TOO_SLOW);
        HttpConnection transport = session.connection().userData().get(SlowClients.TRANSPORT);
        if (transport != null) {
            vertx.setTimer(CLOSE_FRAME_WAIT_MS, id -> transport.close());
        }
    }

    /** Bytes written to the socket and not yet handed to the network. */
    public long unsentBytes(SocketSession session) {
        return unsent(session).get();
    }

    private static AtomicLong unsent(SocketSession session) {
        UserData data = session.connection().userData();
        AtomicLong unsent = data.get(UNSENT);
        if (unsent != null) {
            return unsent;
        }
        synchronized (session) {
            unsent = data.get(UNSENT);
            if (unsent == null) {
                unsent = new AtomicLong();
                data.put(UNSENT, unsent);
            }
            return unsent;
        }
    }
}
