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
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §6: an idle release spares what a socket was granted for a request that came after
 * the idle decision (the node numbers its requests; the release names the last one it saw). That holds
 * for a grant a waiting line or a take-over makes as for a direct one, counted from the socket's latest
 * request for it: Tom asks for Sara's configurator by request 7, asks again by request 8 (a second
 * {@code wait-for}), and is granted it when Sara lets go (or accepts).
 */
@QuarkusTest
class IdleReleaseOfALineGrantTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration CONSENT = Duration.ofSeconds(30);

    @Inject
    WaitingScripts waiting;

    @Inject
    WaitingLines lines;

    @Inject
    LockScripts scripts;

    @Inject
    LockService locks;

    @ParameterizedTest(name = "{0}, asked up to request {1}, idle decided after request {2}: kept {3}")
    @CsvSource({
        "line,     7, 6, true",
        "line,     7, 7, false",
        "line,     8, 7, true",
        "line,     8, 8, false",
        "takeover, 7, 6, true",
        "takeover, 7, 7, false",
    })
    void anIdleReleaseSparesAGrantAskedForAfterItsDecision(String how, long lastRequest, long idleUpTo, boolean kept) {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        Holder saraHolder = new Holder(sara.id(), "Sara", "sara-" + UUID.randomUUID(), "node-test");
        Holder tom = new Holder("tom-" + UUID.randomUUID(), "Tom", "tom-" + UUID.randomUUID(), "node-test");
        Resource configurator = Resource.configurator(c);
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(configurator, saraHolder).await().atMost(WAIT));
        lines.listedFirst(tom.socketId(), c, () -> Uni.createFrom().voidItem())
                .await()
                .atMost(WAIT);

        if (how.equals("line")) {
            for (long request = 7; request <= lastRequest; request++) {
                assertInstanceOf(
                        WaitReply.Queued.class,
                        waiting.waitFor(configurator, tom, true, request)
                                .await()
                                .atMost(WAIT));
            }
            locks.release(configurator, saraHolder.userId(), saraHolder.socketId())
                    .await()
                    .atMost(WAIT);
        } else {
            assertInstanceOf(
                    TakeoverReply.Pending.class,
                    waiting.requestTakeover(configurator, tom, "", CONSENT, lastRequest)
                            .await()
                            .atMost(WAIT));
            waiting.answerTakeover(configurator, saraHolder.userId(), true)
                    .await()
                    .atMost(WAIT);
        }
        assertEquals(List.of(tom.userId()), holders(c), "Tom was granted the configurator (" + how + ")");

        scripts.releaseSocket(c, tom.socketId(), ReleaseReason.IDLE, idleUpTo)
                .await()
                .atMost(WAIT);
        assertEquals(kept ? List.of(tom.userId()) : List.of(), holders(c));
    }

    private List<String> holders(long c) {
        return locks.locks(c).await().atMost(WAIT).stream()
                .map(Lock::ownerUserId)
                .toList();
    }
}
