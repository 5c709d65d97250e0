package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.redis.AcquireReply;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.PipelinedRedis;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.FrozenRedis;
import io.editlock.support.ScriptHooks;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: a lock request the store did not answer in time is answered UNAVAILABLE, and its
 * requester holds nothing for it. Redis is frozen (SIGSTOP) while the request waits in it, and runs it
 * when it wakes up (SIGCONT), after the server gave up: the late grant is given back and announced,
 * and the socket does not keep renewing it.
 */
@QuarkusTest
@TestProfile(FrozenRedis.class)
class TimedOutRequestTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration OUTAGE = Duration.ofSeconds(3);

    @TestHTTPResource("/")
    URI base;

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    @Inject
    PipelinedRedis redis;

    @Inject
    LockScripts scripts;

    @Test
    void aLateGrantOfARequestThatTimedOutIsGivenBack() throws Exception {
        long c = Fixtures.configurator(store);
        Holder sara = Fixtures.user("Sara");
        try (WsClient watcher = WsClient.connect(base, DemoLogin.user("Wu").token())) {
            watcher.request("watch", Map.of("configuratorId", c));
            warmUp();

            // The server gives the request up while Redis is frozen. Its give-back goes out only once
            // the watcher has seen the late grant: the test knows the request ran, and then checks what
            // the give-back did, rather than reading a store the late request has not reached yet.
            ScriptHooks.install(redis)
                    .beforeNext(
                            "cancel_lock_request",
                            () -> Uni.createFrom()
                                    .completionStage(CompletableFuture.runAsync(
                                            () -> watcher.awaitEvent(frame -> isLockUpdatedWithLocks(frame, c)))));
            FrozenRedis.freeze();
            try {
                assertThrows(
                        LockStoreUnavailableException.class,
                        () -> locks.acquire(Resource.configurator(c), sara)
                                .await()
                                .atMost(WAIT),
                        "a request the store does not answer in time fails as unavailable");
            } finally {
                FrozenRedis.thaw();
            }

            JsonNode released = watcher.awaitEvent("lock-released");
            assertEquals(
                    c,
                    released.path("data")
                            .path("resource")
                            .path("configuratorId")
                            .asLong(),
                    "the late grant that watchers saw is announced as released: " + released);
            assertEquals(
                    sara.userId(),
                    released.path("data").path("ownerUserId").asText(),
                    "the grant given back was the late request's: " + released);
            assertEquals(
                    List.of(),
                    locks.locks(c).await().atMost(WAIT),
                    "Sara was told the store is unavailable: she must hold nothing");
            assertEquals(
                    0,
                    locks.renewSocket(sara.socketId(), sara.userId(), ToldGrants.NONE)
                            .await()
                            .atMost(WAIT),
                    "her socket must not renew a lock it was told it did not get");
            assertInstanceOf(
                    AcquireResult.Granted.class,
                    locks.acquire(Resource.configurator(c), Fixtures.user("Omar"))
                            .await()
                            .atMost(WAIT),
                    "nobody holds the configurator: the next user gets it");
            assertFalse(watcher.isClosed());
        }
    }

    /**
     * Redis stays frozen after the request was answered UNAVAILABLE: the give-back's first try, on a new
     * connection, is given up as well. Each later try must go out afresh, on a connection that works
     * once Redis does, not back to the one given up: the late grant is given back as soon as Redis
     * answers again. (No script hooks here: the server's own script runs, as in production.)
     */
    /**
     * The give-back may reach Redis before the request it undoes (two connections, or a request that
     * waited longer in a stalled one): the request then finds itself void and grants nothing.
     */
    @Test
    void aRequestThatRunsAfterItsGiveBackGrantsNothing() {
        long c = Fixtures.configurator(store);
        Holder sara = Fixtures.user("Sara");
        Resource resource = Resource.configurator(c);
        long request = 7;
        scripts.cancelRequest(resource, sara.socketId(), request, ReleaseReason.UNLOCK, Duration.ofMinutes(1))
                .await()
                .atMost(WAIT);

        AcquireReply reply = scripts.acquire(resource, sara, Duration.ofSeconds(30), request)
                .await()
                .atMost(WAIT);

        assertInstanceOf(AcquireReply.GivenUp.class, reply);
        assertEquals(List.of(), locks.locks(c).await().atMost(WAIT), "no lock was granted");
        assertInstanceOf(
                AcquireReply.Granted.class,
                scripts.acquire(resource, sara, Duration.ofSeconds(30), request + 1)
                        .await()
                        .atMost(WAIT),
                "the next request of the socket is not void");
    }

    @Test
    void aGiveBackWhoseFirstTryFailedLandsOnceRedisAnswersAgain() throws Exception {
        long c = Fixtures.configurator(store);
        Holder sara = Fixtures.user("Sara");
        warmUp();

        FrozenRedis.freeze();
        try {
            assertThrows(
                    LockStoreUnavailableException.class,
                    () -> locks.acquire(Resource.configurator(c), sara).await().atMost(WAIT));
            // The outage lasts three command timeouts (one second each here): the give-back's first
            // try waits in Redis and is given up too, and its retries begin.
            Thread.sleep(OUTAGE.toMillis());
        } finally {
            FrozenRedis.thaw();
        }

        await().atMost(WAIT)
                .untilAsserted(() -> assertEquals(
                        List.of(),
                        locks.locks(c).await().atMost(WAIT),
                        "Sara was told the store is unavailable: the late grant must go back"));
        assertEquals(
                0,
                locks.renewSocket(sara.socketId(), sara.userId(), ToldGrants.NONE)
                        .await()
                        .atMost(WAIT),
                "her socket must not renew a lock it was told it did not get");
    }

    /**
     * The requester was told lock-failed, which tells of no release: the grant given back reaches its
     * sockets as any former holder's, lock-lost on each, and lock-released where they watch.
     */
    @Test
    void theRequestersSocketsAreToldOfTheGrantGivenBack() {
        long c = Fixtures.configurator(store);
        TestUser sara = DemoLogin.user("Sara");
        try (WsClient requester = WsClient.connect(base, sara.token());
                WsClient otherTab = WsClient.connect(base, sara.token())) {
            requester.welcome();
            otherTab.welcome();
            requester.request("watch", Map.of("configuratorId", c));
            // The socket's first lock request writes its resume record and opens its connection to
            // Redis: of the next one, only the acquire script itself waits in the frozen Redis.
            requester.request("lock-variables", Map.of("configuratorId", c));
            requester.request("unlock-variables", Map.of("configuratorId", c));
            ScriptHooks.install(redis).beforeNext("acquire_lock", FrozenRedis::frozen);
            JsonNode reply;
            try {
                reply = requester.request("lock-configurator", Map.of("configuratorId", c));
            } finally {
                FrozenRedis.thaw();
            }
            assertEquals("UNAVAILABLE", reply.path("data").path("code").asText(), reply.toString());

            JsonNode lost = requester.awaitEvent(frame -> aboutConfigurator(frame, "lock-lost", c));
            assertEquals("unlock", lost.path("data").path("reason").asText(), lost.toString());
            JsonNode released = requester.awaitEvent(frame -> aboutConfigurator(frame, "lock-released", c));
            assertEquals("unlock", released.path("data").path("reason").asText(), released.toString());
            assertEquals(
                    sara.id(),
                    released.path("data").path("ownerUserId").asText(),
                    "the former holder is the requester: " + released);
            otherTab.awaitEvent(frame -> aboutConfigurator(frame, "lock-lost", c));
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertEquals(
                            List.of(), locks.locks(c).await().atMost(WAIT), "the grant must have gone back"));
        }
    }

    /** The connection a request goes out on is open and Redis knows the script: the request itself waits in Redis. */
    private void warmUp() {
        Holder warm = Fixtures.user("Warm");
        Resource elsewhere = Resource.configurator(Fixtures.configurator(store));
        assertInstanceOf(
                AcquireResult.Granted.class,
                locks.acquire(elsewhere, warm).await().atMost(WAIT));
        locks.release(elsewhere, warm.userId(), warm.socketId()).await().atMost(WAIT);
    }

    private static boolean isLockUpdatedWithLocks(JsonNode frame, long c) {
        return frame.path("event").asText().equals("lock-updated")
                && frame.path("data").path("configuratorId").asLong() == c
                && frame.path("data").path("locks").size() > 0;
    }

    private static boolean aboutConfigurator(JsonNode frame, String event, long c) {
        JsonNode resource = frame.path("data").path("resource");
        return frame.path("event").asText().equals(event)
                && resource.path("type").asText().equals("configurator")
                && resource.path("configuratorId").asLong() == c;
    }
}
