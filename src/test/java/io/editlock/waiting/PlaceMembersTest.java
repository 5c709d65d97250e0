package io.editlock.waiting;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.redis.LockKeys;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node tells a user's place in a line apart from a later place of the same user only by its member
 * (docs/protocol.md §14): the end of a place may be heard while the user's next {@code wait-for} is in
 * flight, and must end that request's place only when it is the same place. So the store never hands
 * a member out twice in a configurator, also once its lines emptied and their count went.
 */
@QuarkusTest
class PlaceMembersTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    LockKeys keys;

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    WaitEventRelay relay;

    @Inject
    WaitingState state;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void aLineThatEmptiesNeverHandsOutAMemberAgain() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = sockets.connect(base, DemoLogin.user("Sara"));
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item)).path("event").asText());
        List<String> waiting = keys.waiting(c);
        String line = waiting.get(1);
        String waiters = waiting.get(2);

        String first = joinAndLeave(tom, item, line);
        // The line is empty: only its count is left, which goes with the configurator.
        assertEquals(1L, call(Command.HLEN, waiters).toLong(), "only the count is left");
        assertEquals(-1L, call(Command.PTTL, waiters).toLong(), "the count stays");

        String second = joinAndLeave(tom, item, line);
        assertNotEquals(first, second, "the line emptied between the two places");
        assertTrue(second.compareTo(first) > 0, "a later place comes later in the line");

        call(Command.DEL, waiters); // lost with the store's data, or deleted by a node of an earlier version
        String third = joinAndLeave(tom, item, line);
        assertTrue(third.compareTo(second) > 0, "a count that starts again starts above every member before");
    }

    /**
     * The count goes on from where it stands when that is ahead of the clock (the store's clock went
     * back, or many asked within a tenth of a millisecond): one more, never a number handed out before.
     */
    @Test
    void aCountAheadOfTheClockGoesOnFromWhereItStands() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = sockets.connect(base, DemoLogin.user("Sara"));
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item)).path("event").asText());
        List<String> waiting = keys.waiting(c);
        call(Command.HSET, waiting.get(2), "#seq", "99999999999990");

        String member = joinAndLeave(tom, item, waiting.get(1));

        assertEquals("99999999999991", member.split("\\|")[1].replaceFirst("^0+", ""), member);
    }

    /** Tom holds the page: the line served him while the node heard nothing, and it catches up. */
    @Test
    void aGrantTheNodeMissedEndsAWaitForInFlightThatTookTheSamePlace() {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        TestUser tomUser = DemoLogin.user("Tom");
        WsClient tom = sockets.connect(base, tomUser);
        assertEquals(
                "lock-acquired",
                tom.request("lock-item-subresource", page(item)).path("event").asText());
        String field = "i:" + item + ":filters";
        assertTrue(state.joined(state.joining(tomUser.id(), c, field), tomUser.id(), c, field, "m1", 1));
        InFlightRequests.Ticket otherTab = state.joining(tomUser.id(), c, field);

        relay.catchUp();

        await("the catch-up ends Tom's place").atMost(WAIT).until(() -> !state.waits(tomUser.id(), c, field));
        assertFalse(state.joined(otherTab, tomUser.id(), c, field, "m1", 1), "the other tab took the same place");
    }

    /**
     * A take-over request and a line's head are served in the order they were asked (docs/protocol.md
     * §13, §14), by numbers from the same count: the request's number must keep every digit.
     */
    @Test
    void aTakeoverRequestKeepsItsNumberInTheOrderOfAsking() throws Exception {
        long c = Fixtures.configurator(store);
        long item = Fixtures.item(store, c);
        WsClient sara = sockets.connect(base, DemoLogin.user("Sara"));
        WsClient tom = sockets.connect(base, DemoLogin.user("Tom"));
        WsClient omar = sockets.connect(base, DemoLogin.user("Omar"));
        assertEquals(
                "lock-acquired",
                sara.request("lock-item-subresource", page(item)).path("event").asText());
        assertEquals(
                "takeover-pending",
                tom.request("request-takeover", about(item)).path("event").asText());
        assertEquals(
                "queued", omar.request("wait-for", about(item)).path("event").asText());

        List<String> waiting = keys.waiting(c);
        String member = call(Command.ZRANGE, waiting.get(1), "0", "0").get(0).toString();
        long omarsNumber = Long.parseLong(member.split("\\|")[1]);
        String takeover =
                call(Command.HGET, waiting.get(3), "i:" + item + ":filters").toString();
        JsonNode tomsNumber = new ObjectMapper().readTree(takeover).path("q");
        assertTrue(tomsNumber.isIntegralNumber(), "written with every digit: " + takeover);
        assertTrue(tomsNumber.asLong() < omarsNumber, "Tom asked first: " + takeover + " " + member);
    }

    @Test
    void theEndOfAPlaceHeardBeforeAWaitForIsAnsweredEndsOnlyThatPlace() throws Exception {
        ObjectMapper json = new ObjectMapper();
        String field = "i:5:filters";
        long c = 970_001;

        InFlightRequests.Ticket sameTab = state.joining("tom", c, field);
        relay.deliver(json.readTree("{\"kind\":\"waiting\",\"c\":\"" + c + "\",\"left\":[{\"f\":\"" + field
                + "\",\"u\":\"tom\",\"m\":\"m1\"}]}"));
        assertFalse(state.joined(sameTab, "tom", c, field, "m1", 1), "the place this request took ended");

        InFlightRequests.Ticket later = state.joining("tom", c, field);
        relay.deliver(json.readTree("{\"kind\":\"waiting\",\"c\":\"" + c + "\",\"left\":[{\"f\":\"" + field
                + "\",\"u\":\"tom\",\"m\":\"m1\"}]}"));
        assertTrue(state.joined(later, "tom", c, field, "m2", 1), "an earlier place ended, not this one");
        state.left("tom", c, field);

        InFlightRequests.Ticket deleted = state.joining("tom", c, field);
        relay.deliver(json.readTree(
                "{\"kind\":\"waiting\",\"c\":\"" + c + "\",\"gone\":[{\"f\":\"" + field + "\",\"u\":\"tom\"}]}"));
        assertFalse(state.joined(deleted, "tom", c, field, "m3", 1), "the page was deleted");
        assertFalse(state.waits("tom", c, field));
    }

    /** Tom joins the line and leaves it, from an empty line to an empty line; @return his place's member. */
    private String joinAndLeave(WsClient tom, long item, String line) {
        assertEquals(
                "queued", tom.request("wait-for", about(item)).path("event").asText());
        Response members = call(Command.ZRANGE, line, "0", "-1");
        assertEquals(1, members.size(), members.toString());
        String member = members.get(0).toString();
        assertEquals(
                "not-waiting",
                tom.request("stop-waiting", about(item)).path("event").asText());
        assertEquals(0L, call(Command.ZCARD, line).toLong());
        return member;
    }

    private Response call(Command command, String... args) {
        return redis.execute(command, args).await().atMost(WAIT);
    }
}
