package io.editlock.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.lock.redis.AcquireReply;
import io.editlock.lock.redis.LockScripts;
import io.editlock.redis.LockKeys;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §7: the fencing token increases strictly with every grant of the same resource, whoever
 * gets it and however the previous grant ended (unlock, disconnect, lease run out), and even after
 * the store lost the configurator's locks.
 */
@QuarkusTest
class FencingTokensIncreaseTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    LockService locks;

    @Inject
    LockScripts scripts;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void everyGrantOfAConfiguratorGetsAGreaterToken() {
        long configurator = Fixtures.configurator(store);
        assertIncreasing(Resource.configurator(configurator), configurator);
    }

    @Test
    void everyGrantOfAnItemPageGetsAGreaterToken() {
        long configurator = Fixtures.configurator(store);
        long item = Fixtures.item(store, configurator);
        assertIncreasing(Resource.itemPage(item, Page.ATTRIBUTES), configurator);
    }

    @Test
    void aStoreThatLostTheLocksDoesNotHandOutAnOldTokenAgain() {
        long configurator = Fixtures.configurator(store);
        Resource resource = Resource.configurator(configurator);
        Holder sara = Fixtures.user("Sara");
        long before = grant(resource, sara).token();

        // The script never hands out a token below the Redis clock in microseconds: once the clock
        // is past the last token, losing the whole locks hash (its '#seq' included) cannot repeat it.
        await("the Redis clock to pass token " + before).atMost(WAIT).until(() -> redisMicros() > before);
        redis.execute(Command.DEL, keys.locks(configurator)).await().atMost(WAIT);

        long after = grant(resource, Fixtures.user("Omar")).token();
        assertTrue(
                after > before,
                "after the locks hash was lost, token " + after + " must still be greater than " + before);
    }

    private void assertIncreasing(Resource resource, long configurator) {
        Holder sara = Fixtures.user("Sara");
        Holder omar = Fixtures.user("Omar");
        List<Long> tokens = new ArrayList<>();

        tokens.add(grant(resource, sara).token());
        release(resource, sara);
        tokens.add(grant(resource, omar).token());
        release(resource, omar);
        tokens.add(grant(resource, sara).token());
        release(resource, sara);
        // The same user again, from another socket, after a disconnect.
        Holder saraTab = Fixtures.otherSocket(sara);
        tokens.add(grant(resource, saraTab).token());
        assertEquals(
                1,
                locks.releaseSocket(saraTab.socketId(), ReleaseReason.DISCONNECT)
                        .await()
                        .atMost(WAIT)
                        .size(),
                "the disconnect must release the lock");
        // A grant whose lease runs out, then a grant after it.
        var reply = scripts.acquire(resource.inConfigurator(configurator), omar, Duration.ofMillis(200))
                .await()
                .atMost(WAIT);
        Lock shortLived = assertInstanceOf(AcquireReply.Granted.class, reply, "the short grant must be granted")
                .lock();
        tokens.add(shortLived.token());
        await("the short lease to run out")
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> locks.locks(configurator).await().atMost(WAIT).isEmpty());
        tokens.add(grant(resource, sara).token());

        for (int i = 1; i < tokens.size(); i++) {
            assertTrue(
                    tokens.get(i) > tokens.get(i - 1),
                    "grant " + (i + 1) + " of " + resource + " got token " + tokens.get(i) + ", not greater than grant "
                            + i + "'s " + tokens.get(i - 1) + "; all: " + tokens);
        }
        assertTrue(tokens.get(0) > 0, "a token is a positive integer, got " + tokens.get(0));
    }

    private Lock grant(Resource resource, Holder holder) {
        AcquireResult result = locks.acquire(resource, holder).await().atMost(WAIT);
        AcquireResult.Granted granted = assertInstanceOf(
                AcquireResult.Granted.class, result, holder.userName() + " must get " + resource + ", got " + result);
        assertTrue(!granted.reentry(), "a grant after a release is a new grant, not a re-entry");
        return granted.lock();
    }

    private void release(Resource resource, Holder holder) {
        ReleaseResult result = locks.release(resource, holder.userId(), holder.socketId())
                .await()
                .atMost(WAIT);
        assertInstanceOf(
                ReleaseResult.Released.class,
                result,
                holder.userName() + " must be able to unlock " + resource + ", got " + result);
    }

    private long redisMicros() {
        Response time = redis.execute(Command.TIME).await().atMost(WAIT);
        return time.get(0).toLong() * 1_000_000 + time.get(1).toLong();
    }
}
