package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.lock.AcquireResult;
import io.editlock.lock.Holder;
import io.editlock.lock.Lock;
import io.editlock.lock.LockService;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
import io.editlock.lock.redis.LockScripts;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6: an idle release spares what a socket was granted for a request that came after
 * the idle decision (the node numbers its requests; the release names the last one it saw). That holds
 * for a grant a waiting line makes as for a direct one: Tom's wait-for is request 7, and the line grants
 * him the configurator when Sara lets go of it.
 */
@QuarkusTest
class IdleReleaseOfALineGrantTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long WAIT_FOR_REQUEST = 7;

    @Inject
    WaitingScripts waiting;

    @Inject
    WaitingLines lines;

    @Inject
    LockScripts scripts;

    @Inject
    LockService locks;

    @Test
    void anIdleReleaseDecidedBeforeTheWaitForSparesTheGrantItsLineMade() {
        Granted tom = grantedByTheLine();
        long c = tom.configurator;
        scripts.releaseSocket(c, tom.holder.socketId(), ReleaseReason.IDLE, WAIT_FOR_REQUEST - 1)
                .await()
                .atMost(WAIT);
        assertEquals(List.of(tom.holder.userId()), holders(c), "the grant came from a request after the idle decision");
    }

    @Test
    void anIdleReleaseDecidedAfterTheWaitForTakesTheGrantItsLineMade() {
        Granted tom = grantedByTheLine();
        long c = tom.configurator;
        scripts.releaseSocket(c, tom.holder.socketId(), ReleaseReason.IDLE, WAIT_FOR_REQUEST)
                .await()
                .atMost(WAIT);
        assertEquals(List.of(), holders(c), "Tom was idle after his wait-for");
    }

    /** Tom waits for Sara's configurator (request 7) and is granted it by the line when she lets go. */
    private Granted grantedByTheLine() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        Holder saraHolder = new Holder(sara.id(), "Sara", "sara-" + UUID.randomUUID(), "node-test");
        Holder tom = new Holder("tom-" + UUID.randomUUID(), "Tom", "tom-" + UUID.randomUUID(), "node-test");
        Resource configurator = Resource.configurator(c);
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(configurator, saraHolder).await().atMost(WAIT));
        lines.indexSocket(tom.socketId(), c).await().atMost(WAIT);
        assertInstanceOf(
                WaitReply.Queued.class,
                waiting.waitFor(configurator, tom, true, WAIT_FOR_REQUEST)
                        .await()
                        .atMost(WAIT));
        locks.release(configurator, saraHolder.userId(), saraHolder.socketId())
                .await()
                .atMost(WAIT);
        assertEquals(List.of(tom.userId()), holders(c), "the line granted Tom the configurator");
        return new Granted(tom, c);
    }

    private List<String> holders(long c) {
        return locks.locks(c).await().atMost(WAIT).stream()
                .map(Lock::ownerUserId)
                .toList();
    }

    private record Granted(Holder holder, long configurator) {}
}
