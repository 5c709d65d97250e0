package io.editlock.session;

import io.editlock.config.EditlockConfig;
import io.editlock.limits.LimitMetrics;
import io.editlock.limits.SlowClients;
import io.editlock.protocol.CloseReasons;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Sends every frame a socket gets (replies and broadcasts) and keeps count of what is written but
 * not yet on the wire. A client that does not read fills its TCP window, and what the server writes
 * then waits in the node's memory; beyond {@code editlock.limits.max-unsent-bytes} the socket is
 * closed with 1008 "too slow", a drop (docs/protocol.md §4, §5), instead of being buffered without bound.
 * Sizes are counted in UTF-8 bytes, as they go on the wire: names and messages may be in any script.
 */
@ApplicationScoped
public class FrameSender {

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

    /** A frame that comes before the socket's welcome is sent after it (and counts as unsent till then). */
    public void send(SocketSession session, String frame) {
        send(session, frame, utf8Length(frame));
    }

    /** @param size the frame's {@link #utf8Length}, for a frame sent to many sockets: counted once */
    public void send(SocketSession session, String frame, long size) {
        if (!session.connection().isOpen()) {
            return;
        }
        if (session.addUnsent(size) > maxUnsent) {
            session.addUnsent(-size);
            if (!session.closedByServer()) {
                tooSlow(session);
            }
            return;
        }
        if (!session.holdUntilWelcome(frame)) {
            write(session, frame, size);
        }
    }

    /** The frame's length in UTF-8, without encoding it. */
    public static long utf8Length(String frame) {
        long bytes = frame.length();
        for (int i = 0; i < frame.length(); i++) {
            char c = frame.charAt(i);
            if (c >= 0x80) {
                // Two bytes below U+0800, three above; a surrogate pair (two chars) is four.
                bytes += c < 0x800 || Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return bytes;
    }

    /**
     * Sends the socket's first frame, then what its user's events brought it since it was registered
     * (docs/protocol.md §4: welcome comes before anything else).
     */
    public void welcome(SocketSession session, String frame) {
        session.addUnsent(utf8Length(frame));
        session.welcome(frame, next -> write(session, next, utf8Length(next)));
    }

    private static void write(SocketSession session, String frame, long size) {
        session.connection().sendText(frame).subscribe().withSubscriber(new Sent(session, size));
    }

    /** Gives the frame's size back once it is on the network or failed: one object per frame. */
    private record Sent(SocketSession session, long size) implements UniSubscriber<Void> {

        @Override
        public void onSubscribe(UniSubscription subscription) {}

        @Override
        public void onItem(Void item) {
            session.addUnsent(-size);
        }

        @Override
        public void onFailure(Throwable failure) {
            session.addUnsent(-size);
        }
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
        return session.unsent();
    }
}
