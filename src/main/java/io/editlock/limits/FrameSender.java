package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SocketSession;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.UserData;
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

    public static final CloseReason TOO_SLOW = new CloseReason(1008, "too slow");
    private static final UserData.TypedKey<AtomicLong> UNSENT = new UserData.TypedKey<>("editlock.unsent-bytes");

    private final SessionLifecycle lifecycle;
    private final long maxUnsent;

    public FrameSender(SessionLifecycle lifecycle, EditlockConfig config) {
        this.lifecycle = lifecycle;
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
                lifecycle.closeByServer(session, TOO_SLOW);
            }
            return;
        }
        session.connection().sendText(frame).subscribe().with(
                ignored -> unsent.addAndGet(-size),
                failure -> unsent.addAndGet(-size));
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
