package io.editlock.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.LockKeys;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The resume record of a socket (docs/protocol.md §5), against a real Redis: written live, with the
 * expiry that ends it should its node die, when the socket first asks for a lock; marked when the
 * socket drops. The node may see the socket end after its client has already resumed elsewhere (a
 * node that stops closes its sockets, and the clients are quick): the mark must then not write the
 * spent record again, which would be a record without its socket that a stopping node waits for in
 * vain.
 */
@QuarkusTest
class ResumeRecordTest {

    private static final Duration GRACE = Duration.ofSeconds(10);
    private static final Duration WAIT = Duration.ofSeconds(5);

    @Inject
    ResumeStore resumes;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    @Test
    void aLiveRecordNamesItsSocketUserAndNodeAndEndsByItself() {
        String token = UUID.randomUUID().toString();

        resumes.recordLive(token, "s-1", "7", "node-a").await().atMost(WAIT);

        assertEquals(Map.of("socketId", "s-1", "userId", "7", "nodeId", "node-a", "state", "live"), record(token));
        long ttl = execute(Command.PTTL, keys.resume(token)).toLong();
        assertTrue(ttl > 0, "it ends by itself unless renewed: " + ttl);
    }

    @Test
    void aRecordAResumeSpentIsNotWrittenAgain() {
        String token = UUID.randomUUID().toString();

        resumes.markDropped(token, GRACE).await().atMost(WAIT);

        assertEquals(Map.of(), record(token));
    }

    @Test
    void aLiveRecordBecomesDroppedForTheGracePeriod() {
        String token = newRecord("live");

        resumes.markDropped(token, GRACE).await().atMost(WAIT);

        assertEquals("dropped", record(token).get("state"));
        long ttl = execute(Command.PTTL, keys.resume(token)).toLong();
        assertTrue(ttl > 0 && ttl <= GRACE.toMillis(), "it lives for the grace period: " + ttl);
    }

    @Test
    void aRecordBeingResumedStaysSoAndAGiveBackMakesItDropped() {
        String token = newRecord("live");
        assertEquals(
                "s-1", resumes.claim(token, "7", "s-2").await().atMost(WAIT).orElseThrow());

        resumes.markDropped(token, GRACE).await().atMost(WAIT);
        assertEquals("resuming", record(token).get("state"), "the resume under way goes on");

        resumes.giveBack(token, "s-2").await().atMost(WAIT);
        assertEquals("dropped", record(token).get("state"), "a failed resume leaves it dropped, as it now is");
    }

    /** A record of socket s-1 of user 7 on a node that answers for nothing (so it counts as gone). */
    private String newRecord(String state) {
        String token = UUID.randomUUID().toString();
        execute(Command.HSET, keys.resume(token), "socketId", "s-1", "userId", "7", "nodeId", "gone", "state", state);
        execute(Command.PEXPIRE, keys.resume(token), "60000");
        return token;
    }

    private Map<String, String> record(String token) {
        Response all = execute(Command.HGETALL, keys.resume(token));
        Map<String, String> fields = new HashMap<>();
        if (all != null) {
            all.getKeys().forEach(key -> fields.put(key, all.get(key).toString()));
        }
        return fields;
    }

    private Response execute(Command command, String... arguments) {
        return redis.execute(command, arguments).await().atMost(WAIT);
    }
}
