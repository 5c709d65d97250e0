package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import io.quarkus.websockets.next.UserData;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * At most {@code editlock.limits.frames-per-second} frames other than lock requests per socket, in
 * one-second windows (docs/protocol.md §4); node-local, since a socket lives on one node. The messages
 * of one socket are handled one after another, so its window needs no locking.
 */
@ApplicationScoped
public class FrameRate {

    private static final UserData.TypedKey<Window> WINDOW = new UserData.TypedKey<>("editlock.frame-rate");

    private final LimitMetrics metrics;
    private final int perSecond;

    public FrameRate(LimitMetrics metrics, EditlockConfig config) {
        this.metrics = metrics;
        this.perSecond = config.limits().framesPerSecond();
    }

    /** Counts one frame of the socket whose user data this is; false when it is beyond the limit of its second. */
    public boolean allow(UserData data) {
        Window window = data.get(WINDOW);
        if (window == null) {
            window = new Window();
            data.put(WINDOW, window);
        }
        if (window.count(System.currentTimeMillis() / 1000) <= perSecond) {
            return true;
        }
        metrics.refused(LimitMetrics.Limit.FRAMES);
        return false;
    }

    public int perSecond() {
        return perSecond;
    }

    private static final class Window {
        private long second;
        private int frames;

        int count(long now) {
            if (now != second) {
                second = now;
                frames = 0;
            }
            return ++frames;
        }
    }
}
