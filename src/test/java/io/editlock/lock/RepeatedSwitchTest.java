package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.redis.AcquireReply;
import io.editlock.lock.redis.LockScripts;
import io.editlock.lock.redis.UserConfigurators;
import io.editlock.redis.CommandCounter;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §2, one configurator per user, when the switch to each grant runs more than once:
 * a line or a take-over hands a configurator to every socket of the user that waited or asked, and
 * each of their nodes switches the user's record to it, each at its own moment. Dora got configurators
 * A and B from two lines at about the same time, with a socket on each of two nodes: whatever the order
 * of the four switches, she ends with the newer grant alone.
 */
@QuarkusTest
@TestProfile(CommandCounter.NoBackgroundWork.class)
class RepeatedSwitchTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    LockScripts scripts;

    @Inject
    UserConfigurators users;

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    private long request;

    /** @param order the grants switched to, in turn: 'o' the older, 'n' the newer (each twice: two nodes) */
    @ParameterizedTest(name = "switches in the order {0}")
    @ValueSource(strings = {"onon", "noon", "oonn", "nnoo", "onno", "nono"})
    void repeatedSwitchesLeaveTheNewerConfiguratorAlone(String order) {
        Holder dora = Fixtures.user("Dora");
        List<Lock> grants = twoConfiguratorsGrantedTo(dora);
        Lock older = grants.get(0);
        Lock newer = grants.get(1);

        for (char which : order.toCharArray()) {
            users.switchTo(which == 'o' ? older : newer, "").await().atMost(WAIT);
        }

        assertHeldAlone(newer, older);
    }

    /** The same four switches at once, as two nodes run them. */
    @RepeatedTest(10)
    void concurrentSwitchesLeaveTheNewerConfiguratorAlone() {
        Holder dora = Fixtures.user("Dora");
        List<Lock> grants = twoConfiguratorsGrantedTo(dora);
        Lock older = grants.get(0);
        Lock newer = grants.get(1);

        Uni.join()
                .all(Stream.of(older, newer, older, newer)
                        .map(grant -> users.switchTo(grant, ""))
                        .toList())
                .andCollectFailures()
                .await()
                .atMost(WAIT);

        assertHeldAlone(newer, older);
    }

    private void assertHeldAlone(Lock newer, Lock older) {
        List<Lock> newerHeld = held(newer);
        assertEquals(1, newerHeld.size(), "the newer configurator stays: " + newerHeld);
        assertEquals(newer.token(), newerHeld.get(0).token(), newerHeld.toString());
        List<Lock> olderHeld = held(older);
        assertEquals(List.of(), olderHeld, "the older configurator goes");
    }

    private List<Lock> held(Lock grant) {
        return locks.locks(grant.resource().configuratorId()).await().atMost(WAIT);
    }

    /**
     * Two configurators granted to {@code holder} as a line grants them: in the store only, each waiting
     * for its switch. Oldest first, in the order that every node agrees on.
     */
    private List<Lock> twoConfiguratorsGrantedTo(Holder holder) {
        List<Lock> grants = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Resource configurator = Resource.configurator(Fixtures.configurator(store));
            AcquireReply reply = scripts.acquire(configurator, holder, locks.lease(), ++request)
                    .await()
                    .atMost(WAIT);
            grants.add(assertInstanceOf(AcquireReply.Granted.class, reply).lock());
        }
        grants.sort(Comparator.comparing(Lock::acquiredAt)
                .thenComparingLong(Lock::token)
                .thenComparingLong(lock -> lock.resource().configuratorId()));
        return grants;
    }
}
