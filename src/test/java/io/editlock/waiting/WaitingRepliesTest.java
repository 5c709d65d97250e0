package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Plain JUnit, no Quarkus: the waiting and take-over scripts' replies, as their headers write them, become types. */
class WaitingRepliesTest {

    private static final String CONFIGURATOR_RECORD = """
            {"type":"configurator","cfg":"12","u":"7","n":"Sara","a":1000,"e":31000}""";

    @Test
    void waitForReadsEveryAnswer() {
        assertInstanceOf(WaitReply.Free.class, WaitingReplies.waitFor("{\"s\":\"FREE\"}"), "FREE");
        assertInstanceOf(WaitReply.NotFound.class, WaitingReplies.waitFor("{\"s\":\"NOT_FOUND\"}"), "NOT_FOUND");
        assertInstanceOf(WaitReply.Full.class, WaitingReplies.waitFor("{\"s\":\"FULL\"}"), "FULL");
        assertInstanceOf(WaitReply.GivenUp.class, WaitingReplies.waitFor("{\"s\":\"VOID\"}"), "VOID");
        assertEquals(
                new WaitReply.Queued(3, "17-2"),
                WaitingReplies.waitFor("{\"s\":\"QUEUED\",\"position\":3,\"member\":\"17-2\"}"),
                "QUEUED keeps position and member");
    }

    @Test
    void stopWaitingTellsWhetherTheUserWaited() {
        assertTrue(WaitingReplies.stopWaiting("{\"s\":\"LEFT\"}"), "LEFT");
        assertFalse(WaitingReplies.stopWaiting("{\"s\":\"NOT_WAITING\"}"), "NOT_WAITING");
    }

    @Test
    void requestTakeoverReadsEveryAnswer() {
        assertEquals(
                new TakeoverReply.Pending(90000, true, "7"),
                WaitingReplies.requestTakeover(
                        "{\"s\":\"PENDING\",\"deadline\":90000,\"created\":true,\"holder\":\"7\"}"),
                "a new request names whom it asked");
        TakeoverReply asked = WaitingReplies.requestTakeover(
                "{\"s\":\"PENDING\",\"deadline\":90000,\"created\":false,\"holder\":\"7\"}");
        assertEquals(
                new TakeoverReply.Pending(90000, false, "7"),
                asked,
                "an earlier request still pending, and whom it asked");
        TakeoverReply locked =
                WaitingReplies.requestTakeover("{\"s\":\"LOCKED\",\"lock\":" + CONFIGURATOR_RECORD + "}");
        assertEquals(
                Resource.configurator(12),
                assertInstanceOf(TakeoverReply.Locked.class, locked, "LOCKED")
                        .blocking()
                        .resource(),
                "the blocking lock");
        assertInstanceOf(
                TakeoverReply.NotHeld.class, WaitingReplies.requestTakeover("{\"s\":\"NOT_HELD\"}"), "NOT_HELD");
        assertInstanceOf(TakeoverReply.Busy.class, WaitingReplies.requestTakeover("{\"s\":\"BUSY\"}"), "BUSY");
        assertInstanceOf(
                TakeoverReply.NotFound.class, WaitingReplies.requestTakeover("{\"s\":\"NOT_FOUND\"}"), "NOT_FOUND");
        assertInstanceOf(TakeoverReply.GivenUp.class, WaitingReplies.requestTakeover("{\"s\":\"VOID\"}"), "VOID");
    }

    @Test
    void answerAndResolveCarryWhatTheyReleased() {
        String released = "[{\"lock\":" + CONFIGURATOR_RECORD + ",\"reason\":\"taken-over\",\"except\":\"\"}]";
        AnswerReply answered =
                WaitingReplies.answerTakeover("{\"s\":\"ANSWERED\",\"handed\":true,\"released\":" + released + "}");
        assertTrue(answered.answered(), "ANSWERED");
        assertEquals(
                List.of(ReleaseReason.TAKEN_OVER),
                answered.released().stream().map(r -> r.reason()).toList(),
                "the handed lock");
        assertEquals(
                new AnswerReply(false, false, List.of()),
                WaitingReplies.answerTakeover("{\"s\":\"NOT_FOUND\",\"released\":{}}"),
                "NOT_FOUND, nothing released");
        assertTrue(
                WaitingReplies.answerTakeover("{\"s\":\"NOT_FOUND\",\"late\":true,\"released\":{}}")
                        .late(),
                "a refusal after the deadline");

        assertInstanceOf(ResolveReply.Gone.class, WaitingReplies.resolveTakeover("{\"s\":\"GONE\"}"), "GONE");
        assertEquals(
                new ResolveReply.NotDue(91000),
                WaitingReplies.resolveTakeover("{\"s\":\"NOT_DUE\",\"deadline\":91000}"),
                "NOT_DUE");
        ResolveReply resolved = WaitingReplies.resolveTakeover(
                "{\"s\":\"RESOLVED\",\"handed\":true,\"holder\":\"7\",\"released\":" + released + "}");
        ResolveReply.Resolved done = assertInstanceOf(ResolveReply.Resolved.class, resolved, "RESOLVED");
        assertEquals("7", done.holder(), "who was asked");
        assertEquals(1, done.released().size(), "the handed lock");
        assertEquals(
                new ResolveReply.Due(List.of("node-a", "node-b")),
                WaitingReplies.resolveTakeover("{\"s\":\"DUE\",\"nodes\":[\"node-a\",\"node-b\"]}"),
                "DUE");
        assertEquals(
                new ResolveReply.Due(List.of()),
                WaitingReplies.resolveTakeover("{\"s\":\"DUE\",\"nodes\":{}}"),
                "DUE with no node: cjson's empty list");
        ResolveReply.Ended ended = assertInstanceOf(
                ResolveReply.Ended.class,
                WaitingReplies.resolveTakeover("{\"s\":\"ENDED\",\"holder\":\"7\",\"released\":{}}"),
                "ENDED");
        assertEquals("7", ended.holder(), "who was asked");
        assertEquals(List.of(), ended.released(), "nothing released");
    }

    @Test
    void readTakeoversReadsWhatStandsAndWhatStandsInTheWayOfAnAsker() {
        TakeoverFacts facts = WaitingReplies.readTakeovers("""
                {"found":true,
                 "pending":[{"f":"var","u":"8","n":"Tom","h":"7","d":90000,"m":""}],
                 "asked":[{"f":"cfg","u":"9","pending":false,"exists":true,
                           "lock":{"type":"configurator","cfg":"12","u":"9","n":"Ada","a":1000,"e":31000,
                                   "t":"17","k":{"s-1":"node-1"}}},
                          {"f":"i:5:filters","u":"9","pending":false,"exists":true,"blocking":%s},
                          {"f":"var","u":"8","pending":true}]}""".formatted(CONFIGURATOR_RECORD));
        assertTrue(facts.found(), "found");
        assertEquals(
                List.of(new PendingTakeover("var", "8", "Tom", "7", 90000, "")),
                facts.pending(),
                "the request that stands");
        TakeoverFacts.Asked granted = facts.asked().get(0);
        assertEquals(17, granted.lock().token(), "the lock of the field, with its token");
        assertEquals(null, granted.blocking(), "nothing in the way");
        TakeoverFacts.Asked blocked = facts.asked().get(1);
        assertEquals(null, blocked.lock(), "a free field");
        assertEquals(Resource.configurator(12), blocked.blocking().resource(), "what is in the way");
        assertTrue(facts.asked().get(2).pending(), "still pending");
        assertEquals(
                new TakeoverFacts(false, List.of(), List.of()),
                WaitingReplies.readTakeovers("{\"found\":false,\"pending\":{},\"asked\":{}}"),
                "cjson's empty lists");
    }

    @Test
    void anUnknownStatusIsAnErrorNotAGuess() {
        assertThrows(IllegalStateException.class, () -> WaitingReplies.waitFor("{\"s\":\"MAYBE\"}"), "wait_for");
        assertThrows(IllegalStateException.class, () -> WaitingReplies.requestTakeover("{}"), "request_takeover");
        assertThrows(
                IllegalStateException.class,
                () -> WaitingReplies.resolveTakeover("{\"s\":\"MAYBE\"}"),
                "resolve_takeover");
        assertThrows(
                IllegalStateException.class,
                () -> WaitingReplies.answerTakeover("{\"s\":\"MAYBE\"}"),
                "answer_takeover");
        assertThrows(
                IllegalStateException.class, () -> WaitingReplies.stopWaiting("{\"s\":\"MAYBE\"}"), "stop_waiting");
    }
}
