package io.editlock.ops;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.redis.LockKeys;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.RenewedShortLeases;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * People come and go all day; what the server keeps for them must go with them. After users who
 * locked, waited in line, asked for a take-over, resumed and left every way a socket can end (a
 * clean close, a page that went away, a drop, a resume then a close), the store keeps nothing of
 * them for good: every key they caused is either the configurators they edited or goes away by
 * itself, the reapers' schedules are empty, and the node counts no socket. A key that stays forever
 * per socket or per user would fill a production Redis over the months.
 */
@QuarkusTest
@TestProfile(RenewedShortLeases.class)
class NothingLeftBehindTest {

    /**
     * Keys that go by themselves: most within minutes (a lock hash a while after its last lease, rate
     * windows, resume records), the count of the lines a user waits in a day after its last use.
     */
    private static final long LONGEST_TEMPORARY_MS = Duration.ofDays(1).toMillis();

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    LockKeys keys;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void peopleWhoLeftLeaveNothingInTheStoreForGood() {
        Set<String> before = new HashSet<>(allKeys());
        TestUser saraUser = DemoLogin.user("Sara");
        long c1 = Api.configurator(saraUser);
        long c2 = Api.configurator(saraUser);
        long item = Api.item(saraUser, c1, null);
        long other = Api.item(saraUser, c1, null);
        Api.filter(saraUser, item);

        WsClient sara = sockets.connect(base, saraUser);
        WsClient saraTab = sockets.connect(base, saraUser);
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        TestUser omarUser = DemoLogin.user("Omar");
        WsClient omar = sockets.connect(base, omarUser);
        WsClient lena = sockets.connect(base, DemoLogin.user("Lena"));
        for (WsClient socket : List.of(sara, saraTab, tom, omar, lena)) {
            socket.request("watch", Map.of("configuratorId", c1));
            socket.request("watch", Map.of("configuratorId", c2));
        }
        assertEquals("lock-acquired", answer(sara, "lock-item-subresource", page(item)));
        assertEquals("lock-acquired", answer(saraTab, "lock-variables", Map.of("configuratorId", c1)));
        assertEquals("lock-acquired", answer(tom, "lock-configurator", Map.of("configuratorId", c2)));
        assertEquals("lock-acquired", answer(omar, "lock-item-subresource", page(other)));
        assertEquals("queued", answer(omar, "wait-for", about(item)));
        assertEquals("lock-failed", answer(lena, "lock-configurator", Map.of("configuratorId", c2)));
        Map<String, Object> structure = Map.of("type", "configurator", "configuratorId", c2);
        assertEquals("takeover-pending", answer(lena, "request-takeover", Map.of("resource", structure)));
        // Tom does not answer: after the consent window the configurator is Lena's.
        lena.awaitEvent(frame -> frame.path("event").asText().equals("takeover-granted"), WAIT);

        sara.closeWith(1001); // a page that went away and never came back
        saraTab.closeCleanly();
        tom.drop(); // no close frame; nobody resumes it
        String omarToken = omar.resumeToken();
        omar.drop();
        WsClient omarAgain = sockets.connect(base, omarUser);
        // Resumed as soon as the node has noticed the drop, as the client library does it.
        await("Omar resumes on a new socket")
                .pollInterval(Duration.ofMillis(50))
                .atMost(Duration.ofSeconds(2))
                .until(() -> answer(omarAgain, "resume", Map.of("resumeToken", omarToken)), "resumed"::equals);
        omarAgain.closeCleanly();
        lena.closeCleanly();

        await("the node counts no socket and no lock")
                .atMost(WAIT)
                .until(() -> gauge("editlock_sockets_connected") == 0 && gauge("editlock_locks_held") == 0);
        await("nothing of them stays in the store for good")
                .atMost(WAIT)
                .untilAsserted(() -> assertEquals(Map.of(), lasting(before)));
    }

    private static String answer(WsClient socket, String event, Map<String, ?> data) {
        return socket.request(event, data).path("event").asText();
    }

    /** Keys made since {@code before} that are neither the catalog nor on their way out, with their TTL. */
    private Map<String, Long> lasting(Set<String> before) {
        Map<String, Long> lasting = new TreeMap<>();
        for (String key : allKeys()) {
            if (before.contains(key) || catalog(key)) {
                continue;
            }
            long ttl = redis.execute(Command.PTTL, key).await().atMost(WAIT).toLong();
            if (ttl == -2) {
                continue; // gone meanwhile
            }
            boolean emptySchedule = (key.equals(keys.leaseExpiries()) || key.equals(keys.takeoverDeadlines()))
                    && redis.execute(Command.ZCARD, key).await().atMost(WAIT).toLong() == 0;
            if (ttl == -1 && !emptySchedule || ttl > LONGEST_TEMPORARY_MS) {
                lasting.put(key, ttl);
            }
        }
        return lasting;
    }

    /**
     * The configurators, their items and entries, and the indexes and sequences over them (a
     * configurator's {@code waiters} keeps the count of its order of asking once its lines are empty).
     */
    private boolean catalog(String key) {
        String prefix = Pattern.quote(
                keys.configuratorIndex().substring(0, keys.configuratorIndex().lastIndexOf(':')));
        return Pattern.matches(
                prefix + ":(\\{c\\d+\\}:(configurator|items|children|item-entries|filters|dependencies"
                        + "|attribute-values|variables|waiters)|[a-z-]+-index|configurator-list|seq:[a-z-]+)",
                key);
    }

    private List<String> allKeys() {
        List<String> all = new ArrayList<>();
        String cursor = "0";
        do {
            Response page =
                    redis.execute(Command.SCAN, cursor, "COUNT", "1000").await().atMost(WAIT);
            cursor = page.get(0).toString();
            page.get(1).forEach(key -> all.add(key.toString()));
        } while (!cursor.equals("0"));
        return all;
    }

    /** The sum of a gauge over its tags. */
    private static double gauge(String name) {
        return RestAssured.get("/q/metrics")
                .asString()
                .lines()
                .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
