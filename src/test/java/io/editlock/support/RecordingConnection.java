package io.editlock.support;

import io.editlock.session.ClientConnection;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A connection with no wire under it, for tests of the session model: it keeps what it is sent. */
public final class RecordingConnection implements ClientConnection {

    private final String id;
    private final boolean stalled;
    private final List<String> frames = new CopyOnWriteArrayList<>();

    public RecordingConnection(String id) {
        this(id, false);
    }

    private RecordingConnection(String id, boolean stalled) {
        this.id = id;
        this.stalled = stalled;
    }

    /** A connection whose client reads nothing: every send is kept and never completes. */
    public static RecordingConnection stalled(String id) {
        return new RecordingConnection(id, true);
    }

    /** What was sent on it, in order. */
    public List<String> frames() {
        return frames;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String transport() {
        return "websocket";
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public UserData userData() {
        return null;
    }

    @Override
    public Uni<Void> sendText(String frame) {
        frames.add(frame);
        return stalled ? Uni.createFrom().nothing() : Uni.createFrom().voidItem();
    }

    @Override
    public Uni<Void> close(CloseReason reason) {
        return Uni.createFrom().voidItem();
    }
}
