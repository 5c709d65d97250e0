package io.editlock.limits;

import io.editlock.config.EditlockConfig;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * At most {@code editlock.limits.sockets-per-user} open sockets per user on this node (docs/protocol.md §4):
 * the upgrade beyond them is refused with 429. An upgrade that passes the check reserves its place until
 * its socket opens, so that upgrades of one user at once (a browser restoring its tabs) are refused at
 * the upgrade too, not admitted and closed. A place whose socket never opens (the client went away
 * during the handshake) is given back after {@link #RESERVATION}.
 */
@ApplicationScoped
public class SocketQuota {

    static final Duration RESERVATION = Duration.ofSeconds(10);

    private final OpenSockets sockets;
    private final LimitMetrics metrics;
    private final int perUser;
    /** Per user, when each place not yet taken by an open socket was reserved (System.nanoTime), oldest first. */
    private final Map<String, Deque<Long>> reserved = new ConcurrentHashMap<>();

    private final LongSupplier nanoClock;

    @Inject
    public SocketQuota(OpenSockets sockets, LimitMetrics metrics, EditlockConfig config) {
        this(sockets, metrics, config.limits().socketsPerUser(), System::nanoTime);
    }

    SocketQuota(OpenSockets sockets, LimitMetrics metrics, int perUser, LongSupplier nanoClock) {
        this.sockets = sockets;
        this.metrics = metrics;
        this.perUser = perUser;
        this.nanoClock = nanoClock;
    }

    /** Before the upgrade: whether the user may open one more socket; if so, its place is kept for it. */
    public boolean reserve(String userId) {
        long now = nanoClock.getAsLong();
        boolean[] admitted = {false};
        reserved.compute(userId, (id, places) -> {
            Deque<Long> current = places == null ? new ArrayDeque<>() : places;
            giveBackExpired(current, now);
            if (sockets.openBy(id) + current.size() < perUser) {
                current.addLast(now);
                admitted[0] = true;
            }
            return current.isEmpty() ? null : current;
        });
        return counted(admitted[0]);
    }

    @Scheduled(
            every = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void giveBackExpiredNow() {
        giveBackExpired();
    }

    /**
     * Gives back the places of handshakes that never finished, also of users who do not upgrade on this
     * node again (else each would keep an entry here for good).
     *
     * @return how many places it gave back
     */
    int giveBackExpired() {
        long now = nanoClock.getAsLong();
        int[] givenBack = {0};
        for (String userId : reserved.keySet()) {
            reserved.computeIfPresent(userId, (id, places) -> {
                givenBack[0] += giveBackExpired(places, now);
                return places.isEmpty() ? null : places;
            });
        }
        return givenBack[0];
    }

    private static int giveBackExpired(Deque<Long> places, long now) {
        int givenBack = 0;
        while (!places.isEmpty() && now - places.peekFirst() > RESERVATION.toNanos()) {
            places.pollFirst();
            givenBack++;
        }
        return givenBack;
    }

    /** Once the socket is open and counted among the user's: its reservation ends. */
    public void opened(String userId) {
        // The socket is counted open before its place is given up: the two never leave a gap between them.
        reserved.computeIfPresent(userId, (id, places) -> {
            places.pollFirst();
            return places.isEmpty() ? null : places;
        });
    }

    /**
     * Whether the user's open sockets, a new one counted, are within the limit: not when its place was
     * given back before it opened and others took it.
     */
    public boolean withinLimit(String userId) {
        return counted(sockets.openBy(userId) <= perUser);
    }

    private boolean counted(boolean admitted) {
        if (!admitted) {
            metrics.refused(LimitMetrics.Limit.SOCKETS);
        }
        return admitted;
    }
}
