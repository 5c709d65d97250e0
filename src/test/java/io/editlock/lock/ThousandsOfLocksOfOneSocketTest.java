package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.support.Fixtures;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A socket may keep thousands of locks in one configurator when the item limit is raised (imports,
 * internal writers): renewing, moving and releasing them must not run into Lua's limit on how many
 * values one call can take (some thousands). The locks are written straight into the store, as
 * copies of one real grant, since taking them one by one would cost minutes.
 */
@QuarkusTest
class ThousandsOfLocksOfOneSocketTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int LOCKS = 4_500;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    @Inject
    RedisDataSource redis;

    @Inject
    LockKeys keys;

    @Test
    void aSocketKeepingThousandsOfLocksIsRenewedMovedAndReleased() throws Exception {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        Holder sara = Fixtures.user("Sara");
        Lock real = assertInstanceOf(
                        AcquireResult.Granted.class,
                        locks.acquire(Resource.itemPage(item, Page.FILTERS), sara)
                                .await()
                                .atMost(WAIT))
                .lock();
        String field = real.resource().field();
        ObjectNode record = (ObjectNode) JSON.readTree(redis.hash(String.class).hget(keys.locks(c), field));
        Map<String, String> copies = new HashMap<>();
        for (int i = 1; i < LOCKS; i++) {
            long copyItem = 1_000_000L + i;
            ObjectNode copy = record.deepCopy();
            copy.put("item", String.valueOf(copyItem));
            copies.put("i:" + copyItem + ":filters", JSON.writeValueAsString(copy));
        }
        redis.hash(String.class).hset(keys.locks(c), copies);

        assertEquals(
                LOCKS,
                locks.renewSocket(sara.socketId(), sara.userId(), ToldGrants.NONE)
                        .await()
                        .atMost(WAIT));
        assertEquals(
                LOCKS,
                locks.moveSocket(sara.socketId(), "sock-resumed", sara.nodeId())
                        .await()
                        .atMost(WAIT)
                        .locks()
                        .size());
        assertEquals(
                LOCKS,
                locks.releaseSocket("sock-resumed", ReleaseReason.DISCONNECT)
                        .await()
                        .atMost(WAIT)
                        .size());
        assertEquals(0, locks.storedLocks(c).await().atMost(WAIT).size(), "nothing is left in the store");
    }
}
