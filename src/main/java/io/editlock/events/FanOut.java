package io.editlock.events;

import io.editlock.session.FrameSender;
import io.editlock.session.SocketSession;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One frame to many sockets. The frame is serialized once by the caller; each event loop then
 * writes it to its own sockets, one task per loop, so a broadcast to thousands of watchers uses
 * every core instead of writing socket after socket on the subscriber's loop. A socket still gets
 * its frames in the order of the changes: a frame written from another thread is queued on the
 * socket's loop too, behind the tasks before it. Per broadcast, one list per event loop; per
 * socket, nothing but the write.
 */
@ApplicationScoped
public class FanOut {

    private final FrameSender sender;

    public FanOut(FrameSender sender) {
        this.sender = sender;
    }

    /**
     * @param configuratorId whose room {@code sessions} are: a socket that left it since is skipped,
     *     so that nothing of it follows its {@code unwatched} (docs/protocol.md §11)
     * @param skipSocketId a socket that already has the frame (as its reply), or null
     */
    public void send(long configuratorId, Collection<SocketSession> sessions, String frame, String skipSocketId) {
        long size = FrameSender.utf8Length(frame);
        if (sessions.size() <= 1) {
            for (SocketSession session : sessions) {
                if (!session.socketId().equals(skipSocketId)) {
                    sendIfWatching(sender, configuratorId, session, frame, size);
                }
            }
            return;
        }
        List<LoopShare> shares = new ArrayList<>(4);
        for (SocketSession session : sessions) {
            if (session.socketId().equals(skipSocketId)) {
                continue;
            }
            Thread loop = session.eventLoopThread();
            if (loop == null) {
                sendIfWatching(
                        sender, configuratorId, session, frame, size); // has not sent a message yet: no loop known
            } else {
                shareOf(shares, loop, session).sessions.add(session);
            }
        }
        Thread current = Thread.currentThread();
        for (LoopShare share : shares) {
            if (share.thread == current) {
                share.send(sender, configuratorId, frame, size);
            } else {
                share.context.runOnContext(ignored -> share.send(sender, configuratorId, frame, size));
            }
        }
    }

    private static LoopShare shareOf(List<LoopShare> shares, Thread loop, SocketSession session) {
        for (LoopShare share : shares) {
            if (share.thread == loop) {
                return share;
            }
        }
        LoopShare share = new LoopShare(loop, session.eventLoop().orElseThrow(), new ArrayList<>());
        shares.add(share);
        return share;
    }

    /** The sockets of one event loop, and a context that runs on it. */
    private record LoopShare(Thread thread, Context context, List<SocketSession> sessions) {

        // On the sockets' own loop, where their unwatch runs too: whether they still watch is exact here.
        void send(FrameSender sender, long configuratorId, String frame, long size) {
            for (SocketSession session : sessions) {
                sendIfWatching(sender, configuratorId, session, frame, size);
            }
        }
    }

    private static void sendIfWatching(
            FrameSender sender, long configuratorId, SocketSession session, String frame, long size) {
        if (session.watched().contains(configuratorId)) {
            sender.send(session, frame, size);
        }
    }
}
