package io.editlock.lock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.Lock;
import io.editlock.lock.MovedSocket;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.Resource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Plain JUnit, no Quarkus: the lock scripts' replies, as their headers write them, become types. */
class ScriptRepliesTest {

    /** A configurator lock record as the scripts write it (lua/locks_lib.lua); the token is a string. */
    private static final String CONFIGURATOR_RECORD = """
            {"type":"configurator","cfg":"12","u":"7","n":"Sara","t":"1700000000000001","a":1000,"e":31000,
             "k":{"sock-1":"node-a"}}""";

    private static final String ITEM_PAGE_RECORD = """
            {"type":"item-subresource","cfg":"12","item":"5","page":"filters","u":"8","n":"Omar","a":2000,"e":32000}""";
    private static final String EXPIRED = """
            [{"lock":%s,"reason":"expired","except":""}]""".formatted(ITEM_PAGE_RECORD);

    @Test
    void grantCarriesItsLockReentryScheduleAndWhatRanOut() {
        AcquireReply reply = ScriptReplies.acquire("""
                {"s":"GRANTED","lock":%s,"reentry":false,"schedule":true,"released":%s}""".formatted(CONFIGURATOR_RECORD, EXPIRED));

        AcquireReply.Granted granted =
                assertInstanceOf(AcquireReply.Granted.class, reply, "GRANTED must read as Granted");
        assertEquals(
                new Lock(
                        Resource.configurator(12),
                        "7",
                        "Sara",
                        Instant.ofEpochMilli(1000),
                        Instant.ofEpochMilli(31000),
                        1700000000000001L,
                        Map.of("sock-1", "node-a")),
                granted.lock(),
                "the granted lock, token to the last digit");
        assertFalse(granted.reentry(), "a new grant is no re-entry");
        assertTrue(granted.schedule(), "the script asked for an expiry look");
        assertEquals(List.of(expiredItemPage()), granted.released(), "the lease found expired on the way");
    }

    @Test
    void reentryWithoutScheduleAndWithNothingReleased() {
        // cjson writes an empty list as {}; a re-entry carries no 'schedule'.
        AcquireReply reply = ScriptReplies.acquire("""
                {"s":"GRANTED","lock":%s,"reentry":true,"released":{}}""".formatted(CONFIGURATOR_RECORD));

        AcquireReply.Granted granted =
                assertInstanceOf(AcquireReply.Granted.class, reply, "GRANTED must read as Granted");
        assertTrue(granted.reentry(), "reentry=true must be kept");
        assertFalse(granted.schedule(), "no 'schedule' means none");
        assertEquals(List.of(), granted.released(), "{} means nothing released");
    }

    @Test
    void lockedCarriesTheBlockingLock() {
        AcquireReply reply = ScriptReplies.acquire("""
                {"s":"LOCKED","lock":%s,"released":{}}""".formatted(ITEM_PAGE_RECORD));

        AcquireReply.Locked locked = assertInstanceOf(AcquireReply.Locked.class, reply, "LOCKED must read as Locked");
        assertEquals(
                Resource.itemPage(5, Page.FILTERS).inConfigurator(12),
                locked.blocking().resource(),
                "the blocking resource");
        assertEquals("8", locked.blocking().ownerUserId(), "the blocking holder");
        assertEquals(0, locked.blocking().token(), "a record without a token reads as token 0");
    }

    @Test
    void limitCarriesTheLimit() {
        AcquireReply reply = ScriptReplies.acquire("{\"s\":\"LIMIT\",\"limit\":50,\"released\":{}}");

        AcquireReply.LimitReached limit =
                assertInstanceOf(AcquireReply.LimitReached.class, reply, "LIMIT must read as LimitReached");
        assertEquals(50, limit.limit(), "the limit the user reached");
        assertEquals(List.of(), limit.released());
    }

    @Test
    void notFoundAndGivenUpReleaseNothing() {
        AcquireReply notFound = ScriptReplies.acquire("{\"s\":\"NOT_FOUND\"}");
        AcquireReply givenUp = ScriptReplies.acquire("{\"s\":\"VOID\"}");

        assertInstanceOf(AcquireReply.NotFound.class, notFound, "NOT_FOUND must read as NotFound");
        assertInstanceOf(AcquireReply.GivenUp.class, givenUp, "VOID must read as GivenUp");
        assertEquals(List.of(), notFound.released(), "NOT_FOUND releases nothing");
        assertEquals(List.of(), givenUp.released(), "VOID releases nothing");
    }

    @Test
    void releasedCarriesTheLockAndEveryRelease() {
        String released = """
                [{"lock":%s,"reason":"unlock","except":"sock-1"}]""".formatted(CONFIGURATOR_RECORD);
        ReleaseReply reply = ScriptReplies.release("""
                {"s":"RELEASED","lock":%s,"released":%s}""".formatted(CONFIGURATOR_RECORD, released));

        ReleaseReply.Released done =
                assertInstanceOf(ReleaseReply.Released.class, reply, "RELEASED must read as Released");
        assertEquals(Resource.configurator(12), done.lock().resource(), "the released lock");
        assertEquals(1, done.released().size(), "one release in the run");
        assertEquals(ReleaseReason.UNLOCK, done.released().get(0).reason(), "its reason");
        assertEquals("sock-1", done.released().get(0).exceptSocketId(), "the socket whose request it was");
    }

    @Test
    void notHeldStillCarriesWhatRanOut() {
        ReleaseReply reply = ScriptReplies.release("""
                {"s":"NOT_HELD","released":%s}""".formatted(EXPIRED));

        ReleaseReply.NotHeld notHeld =
                assertInstanceOf(ReleaseReply.NotHeld.class, reply, "NOT_HELD must read as NotHeld");
        assertEquals(List.of(expiredItemPage()), notHeld.released(), "the lease found expired on the way");
    }

    @Test
    void listsMovesAndReaps() {
        assertEquals(
                List.of(Resource.configurator(12)),
                ScriptReplies.locks("{\"locks\":[" + CONFIGURATOR_RECORD + "]}").stream()
                        .map(Lock::resource)
                        .toList(),
                "list_locks");
        assertEquals(
                MovedSocket.NOTHING,
                ScriptReplies.moved(12, "{\"moved\":{},\"waits\":false,\"places\":{}}"),
                "move_socket_locks with nothing moved");
        assertEquals(
                new MovedSocket(
                        List.of(),
                        true,
                        List.of(new MovedSocket.Place(12, "i:5:filters", "i:5:filters|0007|7")),
                        List.of()),
                ScriptReplies.moved(
                        12,
                        "{\"moved\":{},\"waits\":true,\"places\":[{\"f\":\"i:5:filters\",\"m\":\"i:5:filters|0007|7\"}]}"),
                "move_socket_locks that moved a place in a line only");
        assertEquals(
                new MovedSocket(List.of(), true, List.of(), List.of(new MovedSocket.Ask(12, "i:5:filters", "sara"))),
                ScriptReplies.moved(
                        12,
                        "{\"moved\":{},\"waits\":true,\"places\":{},\"asks\":[{\"f\":\"i:5:filters\",\"h\":\"sara\"}]}"),
                "move_socket_locks that moved a take-over request only");
        assertEquals(
                List.of(expiredItemPage()),
                ScriptReplies.released("{\"released\":" + EXPIRED + "}"),
                "release_socket_locks");
        assertEquals(
                new Reaped(List.of(expiredItemPage()), 45000),
                ScriptReplies.reaped("{\"next\":45000,\"released\":" + EXPIRED + "}"),
                "reap_expired_locks");
    }

    @Test
    void anUnknownStatusIsAnErrorNotAGuess() {
        assertThrows(IllegalStateException.class, () -> ScriptReplies.acquire("{\"s\":\"MAYBE\"}"), "acquire_lock");
        assertThrows(IllegalStateException.class, () -> ScriptReplies.release("{\"s\":\"MAYBE\"}"), "release_lock");
        assertThrows(IllegalStateException.class, () -> ScriptReplies.release("not json"), "not JSON");
    }

    private static ReleasedLock expiredItemPage() {
        Lock lock = new Lock(
                Resource.itemPage(5, Page.FILTERS).inConfigurator(12),
                "8",
                "Omar",
                Instant.ofEpochMilli(2000),
                Instant.ofEpochMilli(32000),
                0,
                Map.of());
        return new ReleasedLock(lock, ReleaseReason.EXPIRED, "");
    }
}
