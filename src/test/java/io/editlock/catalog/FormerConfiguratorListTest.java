package io.editlock.catalog;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.LockKeys;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md, "Upgrading": configurators that an earlier version listed in a set are listed
 * again, by id, once a node of this version has moved them into the sorted set the listing reads.
 */
@QuarkusTest
class FormerConfiguratorListTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Inject
    FormerConfiguratorList former;

    @Test
    void configuratorsAnEarlierVersionListedAreListedAgainOnceMoved() {
        TestUser sara = DemoLogin.user("Sara");
        List<Long> created = List.of(Api.configurator(sara), Api.configurator(sara), Api.configurator(sara));
        // As an earlier version left them: in the set only. Ids beyond them, whose records are gone, fill
        // more than one batch of the move.
        List<String> ids = new ArrayList<>();
        created.forEach(id -> ids.add(String.valueOf(id)));
        LongStream.range(0, 1500).forEach(n -> ids.add(String.valueOf(900_000_000L + n)));
        created.forEach(id -> redis("ZREM", keys.configuratorIndex(), String.valueOf(id)));
        List<String> add = new ArrayList<>(List.of(keys.formerConfiguratorIndex()));
        add.addAll(ids);
        redis("SADD", add.toArray(String[]::new));
        assertFalse(listed(sara, created.get(0)), "not listed before the move");

        assertTrue(former.move().await().atMost(WAIT) >= ids.size());

        created.forEach(id -> assertTrue(listed(sara, id), "configurator " + id + " is listed again"));
        assertEquals(0, redis("EXISTS", keys.formerConfiguratorIndex()).toLong(), "the set is gone");
        ids.forEach(id -> assertEquals(
                Long.parseLong(id),
                redis("ZSCORE", keys.configuratorIndex(), id).toLong(),
                "scored by its id"));
        List<String> gone = new ArrayList<>(List.of(keys.configuratorIndex()));
        gone.addAll(ids.subList(created.size(), ids.size()));
        redis("ZREM", gone.toArray(String[]::new));
    }

    /** Whether the page right after the id before it starts with the configurator. */
    private static boolean listed(TestUser user, long id) {
        List<Integer> page = as(user).get("/api/configurators?limit=1&after=" + (id - 1))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("id");
        return !page.isEmpty() && page.get(0) == id;
    }

    private Response redis(String command, String... args) {
        return redis.execute(Command.create(command), args).await().atMost(WAIT);
    }
}
