package io.editlock.waiting;

import static io.editlock.support.Sockets.filters;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.editlock.redis.LockKeys;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §13: an {@code answer-takeover} that names its asker ({@code byUserId}) answers only that
 * asker's request. A yes meant for an asker who left must not hand the page to the next one, whom the holder
 * never agreed to.
 */
@QuarkusTest
@TestProfile(TakeoverTest.ShortConsent.class)
class TakeoverAnswerNamesItsAskerTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

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

    private static Map<String, Object> answer(long item, boolean accept, String byUserId) {
        Map<String, Object> data = new HashMap<>(Map.of("resource", filters(item), "accept", accept));
        if (byUserId != null) {
            data.put("byUserId", byUserId);
        }
        return data;
    }

    /** Sara holds the filters page of a new item; her socket is the first of the list, the asker's the second. */
    private record Scene(long c, long item, WsClient sara, WsClient asker, TestUser saraUser, TestUser askerUser) {}

    private Scene askedBy(TestUser askerUser) {
        TestUser saraUser = DemoLogin.user("Sara");
        long c = Api.configurator(saraUser);
        long item = Api.item(saraUser, c, null);
        WsClient sara = sockets.connect(base, saraUser);
        WsClient asker = sockets.connect(base, askerUser);
        sara.request("lock-item-subresource", page(item));
        JsonNode pending = asker.request("request-takeover", Map.of("resource", filters(item)));
        assertEquals("takeover-pending", pending.path("event").asText(), pending.toString());
        sara.awaitEvent(frame -> frame.path("event").asText().equals("takeover-requested")
                && frame.path("data").path("byUserId").asText().equals(askerUser.id()));
        return new Scene(c, item, sara, asker, saraUser, askerUser);
    }

    @Test
    void aYesForAnAskerWhoLeftDoesNotHandThePageToTheNextAsker() {
        TestUser tomUser = DemoLogin.user("Tom");
        TestUser omarUser = DemoLogin.user("Omar");
        Scene scene = askedBy(tomUser);
        WsClient sara = scene.sara();
        long item = scene.item();
        // Tom leaves: his request ends without a word to Sara, whose dialog still names him.
        scene.asker().closeCleanly();
        await().atMost(Duration.ofSeconds(10)).until(() -> takeovers(scene.c()).isEmpty());
        WsClient omar = sockets.connect(base, omarUser);
        assertEquals(
                "takeover-pending",
                omar.request("request-takeover", Map.of("resource", filters(item)))
                        .path("event")
                        .asText());
        Map<String, String> omarsRequest = takeovers(scene.c());
        Map<String, String> saraLock = lock(scene.c(), item);

        JsonNode forTom = sara.request("answer-takeover", answer(item, true, tomUser.id()));
        assertEquals("error", forTom.path("event").asText(), forTom.toString());
        assertEquals("NOT_FOUND", forTom.path("data").path("code").asText(), forTom.toString());
        JsonNode noForTom = sara.request("answer-takeover", answer(item, false, tomUser.id()));
        assertEquals("NOT_FOUND", noForTom.path("data").path("code").asText(), noForTom.toString());

        assertEquals(saraLock, lock(scene.c(), item), "the page stays Sara's");
        assertEquals(omarsRequest, takeovers(scene.c()), "Omar's request stands as it was");
        assertTrue(sara.events("lock-lost").isEmpty(), sara.received().toString());
        assertTrue(omar.events("takeover-granted").isEmpty(), omar.received().toString());
        assertTrue(omar.events("takeover-refused").isEmpty(), omar.received().toString());

        // Omar's request is still there to answer: named, it hands the page to him.
        JsonNode forOmar = sara.request("answer-takeover", answer(item, true, omarUser.id()));
        assertEquals("takeover-answered", forOmar.path("event").asText(), forOmar.toString());
        JsonNode granted = omar.awaitEvent("takeover-granted").path("data").path("lock");
        assertEquals(omarUser.id(), granted.path("ownerUserId").asText(), granted.toString());
        assertEquals(
                "taken-over",
                sara.awaitEvent("lock-lost").path("data").path("reason").asText());
    }

    @Test
    void anAnswerThatNamesTheAskerOrNoOneAnswersTheRequestAsBefore() {
        TestUser tomUser = DemoLogin.user("Tom");
        Scene refused = askedBy(tomUser);
        JsonNode no = refused.sara().request("answer-takeover", answer(refused.item(), false, tomUser.id()));
        assertEquals("takeover-answered", no.path("event").asText(), no.toString());
        assertEquals(
                "Sara",
                refused.asker()
                        .awaitEvent("takeover-refused")
                        .path("data")
                        .path("byUserName")
                        .asText());

        Scene unnamed = askedBy(DemoLogin.user("Lea"));
        JsonNode yes = unnamed.sara().request("answer-takeover", answer(unnamed.item(), true, null));
        assertEquals("takeover-answered", yes.path("event").asText(), yes.toString());
        assertEquals(
                unnamed.askerUser().id(),
                unnamed.asker()
                        .awaitEvent("takeover-granted")
                        .path("data")
                        .path("lock")
                        .path("ownerUserId")
                        .asText());
    }

    static Stream<Arguments> badByUserIds() {
        return Stream.of(
                Arguments.of("a number", "7"),
                Arguments.of("an object", "{\"id\":\"7\"}"),
                Arguments.of("an array", "[\"7\"]"),
                Arguments.of("a boolean", "true"),
                Arguments.of("an empty string", "\"\""),
                Arguments.of("blank", "\" \\u00a0\""),
                Arguments.of("half a surrogate pair", "\"a\\ud800\""),
                Arguments.of("the other half", "\"\\udc00\""));
    }

    /** A bad byUserId is a bad frame: never read as "none named", which would answer whichever request stands. */
    @ParameterizedTest(name = "byUserId {0}")
    @MethodSource("badByUserIds")
    void aBadByUserIdIsABadRequestAndChangesNothing(String name, String byUserId) {
        Scene scene = askedBy(DemoLogin.user("Tom"));
        Map<String, String> request = takeovers(scene.c());
        Map<String, String> saraLock = lock(scene.c(), scene.item());

        scene.sara()
                .sendRaw("{\"event\":\"answer-takeover\",\"ref\":\"bad\",\"data\":{\"resource\":{\"type\":"
                        + "\"item-subresource\",\"itemId\":" + scene.item() + ",\"page\":\"filters\"},"
                        + "\"accept\":true,\"byUserId\":" + byUserId + "}}");
        JsonNode error = scene.sara().reply("bad");

        assertEquals("error", error.path("event").asText(), name + ": " + error);
        assertEquals("BAD_REQUEST", error.path("data").path("code").asText(), name + ": " + error);
        assertEquals(request, takeovers(scene.c()), name + ": the request stands as it was");
        assertEquals(saraLock, lock(scene.c(), scene.item()), name + ": the page stays Sara's");
        assertTrue(
                scene.sara().events("lock-lost").isEmpty(),
                name + ": " + scene.sara().received());
        assertTrue(
                scene.asker().events("takeover-granted").isEmpty(),
                name + ": " + scene.asker().received());
    }

    private Map<String, String> takeovers(long c) {
        return hash(keys.waiting(c).get(3));
    }

    /** Holder and fencing token of the page: what a hand-over changes (its lease end moves by itself). */
    private Map<String, String> lock(long c, long item) {
        String record = hash(keys.locks(c)).get("i:" + item + ":filters");
        try {
            JsonNode lock = JSON.readTree(record);
            return Map.of("u", lock.path("u").asText(), "t", lock.path("t").asText());
        } catch (Exception e) {
            throw new AssertionError("no lock record for the page: " + record, e);
        }
    }

    private Map<String, String> hash(String key) {
        Response all = redis.execute(Command.HGETALL, key).await().atMost(WAIT);
        Map<String, String> fields = new HashMap<>();
        for (String field : all.getKeys()) {
            fields.put(field, all.get(field).toString());
        }
        return fields;
    }
}
