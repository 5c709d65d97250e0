package io.editlock.waiting;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Lock;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.redis.LockRecords;
import io.editlock.redis.ScriptJson;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where the replies of the waiting and take-over scripts become types. The reply
 * shapes are written in each script's header (src/main/resources/lua/).
 */
final class WaitingReplies {

    private WaitingReplies() {}

    /** wait_for: {@code {s=FREE} | {s=QUEUED, position, member} | {s=NOT_FOUND} | {s=FULL} | {s=VOID}}. */
    static WaitReply waitFor(String json) {
        JsonNode reply = ScriptJson.parse(json);
        return switch (reply.path("s").asText()) {
            case "FREE" -> new WaitReply.Free();
            case "QUEUED" ->
                new WaitReply.Queued(
                        reply.path("position").asLong(), reply.path("member").asText());
            case "NOT_FOUND" -> new WaitReply.NotFound();
            case "FULL" -> new WaitReply.Full();
            case "VOID" -> new WaitReply.GivenUp();
            default -> throw new IllegalStateException("wait_for answered " + json);
        };
    }

    /** stop_waiting: {@code {s=LEFT|NOT_WAITING}}. @return whether the user was waiting */
    static boolean stopWaiting(String json) {
        JsonNode reply = ScriptJson.parse(json);
        return switch (reply.path("s").asText()) {
            case "LEFT" -> true;
            case "NOT_WAITING" -> false;
            default -> throw new IllegalStateException("stop_waiting answered " + json);
        };
    }

    /**
     * request_takeover: {@code {s=PENDING, deadline, created, holder} | {s=LOCKED, lock} |
     * {s=NOT_HELD|BUSY|NOT_FOUND|VOID}}.
     */
    static TakeoverReply requestTakeover(String json) {
        JsonNode reply = ScriptJson.parse(json);
        return switch (reply.path("s").asText()) {
            case "PENDING" ->
                new TakeoverReply.Pending(
                        reply.path("deadline").asLong(),
                        reply.path("created").asBoolean(),
                        reply.path("holder").asText());
            case "LOCKED" -> new TakeoverReply.Locked(LockRecords.lock(reply.path("lock")));
            case "NOT_HELD" -> new TakeoverReply.NotHeld();
            case "BUSY" -> new TakeoverReply.Busy();
            case "NOT_FOUND" -> new TakeoverReply.NotFound();
            case "VOID" -> new TakeoverReply.GivenUp();
            default -> throw new IllegalStateException("request_takeover answered " + json);
        };
    }

    /** withdraw_waiting_request: {@code {released}}. */
    static List<ReleasedLock> withdraw(String json) {
        return LockRecords.released(ScriptJson.parse(json).path("released"));
    }

    /** answer_takeover: {@code {s=ANSWERED|NOT_FOUND, late, released}}. */
    static AnswerReply answerTakeover(String json) {
        JsonNode reply = ScriptJson.parse(json);
        boolean answered = switch (reply.path("s").asText()) {
            case "ANSWERED" -> true;
            case "NOT_FOUND" -> false;
            default -> throw new IllegalStateException("answer_takeover answered " + json);
        };
        return new AnswerReply(answered, reply.path("late").asBoolean(), LockRecords.released(reply.path("released")));
    }

    /** resolve_takeover: {@code {s=GONE} | {s=NOT_DUE, deadline} | {s=RESOLVED, holder, released}}. */
    static ResolveReply resolveTakeover(String json) {
        JsonNode reply = ScriptJson.parse(json);
        return switch (reply.path("s").asText()) {
            case "GONE" -> new ResolveReply.Gone();
            case "NOT_DUE" -> new ResolveReply.NotDue(reply.path("deadline").asLong());
            case "DUE" -> new ResolveReply.Due(texts(reply.path("nodes")));
            case "ENDED" ->
                new ResolveReply.Ended(reply.path("holder").asText(), LockRecords.released(reply.path("released")));
            case "RESOLVED" ->
                new ResolveReply.Resolved(reply.path("holder").asText(), LockRecords.released(reply.path("released")));
            default -> throw new IllegalStateException("resolve_takeover answered " + json);
        };
    }

    /** read_takeovers: {@code {found, pending=[{f, u, n, h, d, m}], asked=[{f, u, pending, exists?, lock?, blocking?}]}}. */
    static TakeoverFacts readTakeovers(String json) {
        JsonNode reply = ScriptJson.parse(json);
        List<PendingTakeover> pending = new ArrayList<>();
        // cjson writes an empty list as {}: both mean "none".
        if (reply.path("pending").isArray()) {
            reply.path("pending").forEach(entry -> pending.add(PendingTakeover.of(entry)));
        }
        List<TakeoverFacts.Asked> asked = new ArrayList<>();
        if (reply.path("asked").isArray()) {
            reply.path("asked")
                    .forEach(entry -> asked.add(new TakeoverFacts.Asked(
                            entry.path("f").asText(),
                            entry.path("u").asText(),
                            entry.path("pending").asBoolean(),
                            entry.path("exists").asBoolean(),
                            lockOrNull(entry.path("lock")),
                            lockOrNull(entry.path("blocking")))));
        }
        return new TakeoverFacts(reply.path("found").asBoolean(), pending, asked);
    }

    private static Lock lockOrNull(JsonNode record) {
        return record.isObject() ? LockRecords.lock(record) : null;
    }

    /** A JSON array of strings; cjson writes an empty list as {}, which means none too. */
    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        if (array.isArray()) {
            array.forEach(text -> texts.add(text.asText()));
        }
        return texts;
    }
}
