package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LuaScript;
import io.editlock.redis.Scripts;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Redis forgets its script cache on SCRIPT FLUSH, restart and failover. The engine must go on: the
 * next EVALSHA answers NOSCRIPT and the script is sent once in full (ScriptExecutor).
 */
@QuarkusTest
class ScriptFlushTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** The engine's acquire script, as Redis caches it. */
    private static final LuaScript ACQUIRE = Scripts.ACQUIRE_LOCK;

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    @Inject
    ReactiveRedisDataSource redis;

    @Test
    void locksStillWorkAfterTheScriptCacheWasFlushed() {
        long configurator = Fixtures.configurator(store);
        long item = Fixtures.item(store, configurator);
        Holder sara = Fixtures.user("Sara");
        Holder omar = Fixtures.user("Omar");
        assertInstanceOf(
                AcquireResult.Granted.class, acquire(Resource.variables(configurator), sara), "before the flush");
        assertEquals(List.of(1L), cached(ACQUIRE), "the acquire script must be cached before the flush");

        flush();
        assertEquals(List.of(0L), cached(ACQUIRE), "SCRIPT FLUSH must have emptied the script cache");

        AcquireResult page = acquire(Resource.itemPage(item, Page.FILTERS), sara);
        assertInstanceOf(
                AcquireResult.Granted.class,
                page,
                "an acquire right after SCRIPT FLUSH must still be granted, got " + page);
        assertEquals(List.of(1L), cached(ACQUIRE), "the fallback must have cached the acquire script again");

        flush();
        AcquireResult refused = acquire(Resource.configurator(configurator), omar);
        AcquireResult.Refused r = assertInstanceOf(
                AcquireResult.Refused.class,
                refused,
                "after another flush a conflicting acquire must still be decided (refused), got " + refused);
        assertEquals(sara.userId(), r.blocking().ownerUserId(), "the refusal must still name the holder");

        flush();
        List<Lock> listed = locks.locks(configurator).await().atMost(WAIT);
        assertEquals(2, listed.size(), "listing after a flush must still show both locks, got " + listed);

        flush();
        ReleaseResult released = locks.release(Resource.variables(configurator), sara.userId(), sara.socketId())
                .await()
                .atMost(WAIT);
        assertInstanceOf(
                ReleaseResult.Released.class,
                released,
                "an unlock right after SCRIPT FLUSH must still release, got " + released);

        flush();
        List<ReleasedLock> gone = locks.releaseSocket(sara.socketId(), ReleaseReason.DISCONNECT)
                .await()
                .atMost(WAIT);
        assertEquals(
                List.of(Resource.itemPage(item, Page.FILTERS).inConfigurator(configurator)),
                gone.stream().map(g -> g.lock().resource()).toList(),
                "a disconnect right after SCRIPT FLUSH must still release the page");
        assertEquals(List.of(), locks.locks(configurator).await().atMost(WAIT), "nothing may be left");
    }

    private AcquireResult acquire(Resource resource, Holder holder) {
        return locks.acquire(resource, holder).await().atMost(WAIT);
    }

    private void flush() {
        redis.execute(Command.SCRIPT, "FLUSH").await().atMost(WAIT);
    }

    private List<Long> cached(LuaScript script) {
        List<Long> exists = new ArrayList<>();
        redis.execute(Command.SCRIPT, "EXISTS", script.sha1())
                .await()
                .atMost(WAIT)
                .forEach(r -> exists.add(r.toLong()));
        return exists;
    }
}
