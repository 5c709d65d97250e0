package io.editlock.socketio;

import io.editlock.config.EditlockConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Engine.IO sessions of this node that no Socket.IO socket is connected on, on the whole node and by
 * client address (docs/socketio.md). The handshake takes no token: these are the sessions anyone can open,
 * so a handshake beyond either bound opens nothing. Handshakes arrive on several event loops at once.
 */
@ApplicationScoped
class UnconnectedSessions {

    private final int max;
    private final int maxPerAddress;
    private final AtomicInteger total = new AtomicInteger();
    /** Only addresses with a session counted: at most {@link #max} entries. */
    private final Map<String, Integer> byAddress = new ConcurrentHashMap<>();

    @Inject
    UnconnectedSessions(EditlockConfig config) {
        this(config.socketio().maxUnconnectedSessions(), config.socketio().maxUnconnectedSessionsPerAddress());
    }

    UnconnectedSessions(int max, int maxPerAddress) {
        this.max = max;
        this.maxPerAddress = maxPerAddress;
    }

    /**
     * A place for a new session from {@code address}, counted until it is given back. When the second
     * bound refuses, the place the first gave is returned: meanwhile it may refuse another handshake at the
     * node's bound, never admit one beyond it.
     */
    Place admit(String address) throws HandshakeRefusal.Refused {
        if (!takeFrom(address)) {
            throw new HandshakeRefusal.Refused(HandshakeRefusal.UNCONNECTED_SESSIONS_PER_ADDRESS);
        }
        if (!takeFromNode()) {
            giveBack(address);
            throw new HandshakeRefusal.Refused(HandshakeRefusal.UNCONNECTED_SESSIONS);
        }
        return new Place(address);
    }

    /** Sessions counted now, on the whole node. */
    int count() {
        return total.get();
    }

    private boolean takeFromNode() {
        int now;
        do {
            now = total.get();
            if (now >= max) {
                return false;
            }
        } while (!total.compareAndSet(now, now + 1));
        return true;
    }

    private boolean takeFrom(String address) {
        boolean[] taken = {false};
        byAddress.compute(address, (key, count) -> {
            int now = count == null ? 0 : count;
            if (now >= maxPerAddress) {
                return count;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    /** A session that is counted again though the bounds are reached: it exists, and nothing is refused it. */
    private void retake(String address) {
        byAddress.merge(address, 1, Integer::sum);
        total.incrementAndGet();
    }

    private void giveBack(String address) {
        byAddress.computeIfPresent(address, (key, count) -> count <= 1 ? null : count - 1);
    }

    private void release(String address) {
        giveBack(address);
        total.decrementAndGet();
    }

    /**
     * The place of one session. It is given back when a socket connects on the session or the session
     * ends, and taken again when its socket disconnects and the session stays: a session waiting for its
     * connect timeout counts, whatever it was before. Each is called once per change, from any thread.
     */
    final class Place {
        private final String address;
        private boolean counted = true;
        private boolean ended;

        private Place(String address) {
            this.address = address;
        }

        synchronized void connected() {
            uncount();
        }

        synchronized void disconnected() {
            if (!counted && !ended) {
                counted = true;
                retake(address);
            }
        }

        synchronized void ended() {
            ended = true;
            uncount();
        }

        private void uncount() {
            if (counted) {
                counted = false;
                release(address);
            }
        }
    }
}
