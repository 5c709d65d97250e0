package io.editlock.lock.redis;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.lock.Lock;
import io.editlock.lock.MovedSocket;
import io.editlock.lock.ReleasedLock;
import io.editlock.redis.ScriptJson;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where the replies of the lock scripts become types. The reply shapes are written in
 * each script's header (src/main/resources/lua/); the records inside them are read by {@link LockRecords}.
 */
public final class ScriptReplies {

    private ScriptReplies() {}

    /** acquire_lock: {@code {s=GRANTED|LOCKED|NOT_FOUND|LIMIT|VOID, lock, reentry, schedule, limit, released}}. */
    public static AcquireReply acquire(String json) {
        JsonNode reply = ScriptJson.parse(json);
        return switch (reply.path("s").asText()) {
            case "GRANTED" ->
                new AcquireReply.Granted(
                        LockRecords.lock(reply.path("lock")),
                        reply.path("reentry").asBoolean(),
                        reply.path("schedule").asBoolean(),
                        released(reply));
            case "LOCKED" -> new AcquireReply.Locked(LockRecords.lock(reply.path("lock")), released(reply));
            case "NOT_FOUND" -> new AcquireReply.NotFound();
            case "LIMIT" -> new AcquireReply.LimitReached(reply.path("limit").asInt(), released(reply));
            case "VOID" -> new AcquireReply.GivenUp();
            default -> throw new IllegalStateException("acquire_lock answered " + json);
        };
    }

    /** release_lock: {@code {s=RELEASED|NOT_HELD|GIVEN_UP, lock, released}}. */
    public static ReleaseReply release(String json) {
        JsonNode reply = ScriptJson.parse(json);
        return switch (reply.path("s").asText()) {
            case "RELEASED" -> new ReleaseReply.Released(LockRecords.lock(reply.path("lock")), released(reply));
            case "NOT_HELD" -> new ReleaseReply.NotHeld(released(reply));
            case "GIVEN_UP" -> new ReleaseReply.GivenUp();
            default -> throw new IllegalStateException("release_lock answered " + json);
        };
    }

    /** release_socket_locks, cancel_lock_request: {@code {released}}. */
    public static List<ReleasedLock> released(String json) {
        return released(ScriptJson.parse(json));
    }

    /** move_socket_locks in configurator {@code c}: {@code {moved, waits, places=[{f, m}], asks=[{f, h}]}}. */
    public static MovedSocket moved(long c, String json) {
        JsonNode reply = ScriptJson.parse(json);
        List<MovedSocket.Place> places = new ArrayList<>();
        if (reply.path("places").isArray()) {
            reply.path("places")
                    .forEach(place -> places.add(new MovedSocket.Place(
                            c, place.path("f").asText(), place.path("m").asText())));
        }
        List<MovedSocket.Ask> asks = new ArrayList<>();
        if (reply.path("asks").isArray()) {
            reply.path("asks")
                    .forEach(ask -> asks.add(new MovedSocket.Ask(
                            c, ask.path("f").asText(), ask.path("h").asText())));
        }
        return new MovedSocket(
                LockRecords.locks(reply.path("moved")),
                reply.path("waits").asBoolean(),
                List.copyOf(places),
                List.copyOf(asks));
    }

    /** list_locks: {@code {locks}}. */
    public static List<Lock> locks(String json) {
        return LockRecords.locks(ScriptJson.parse(json).path("locks"));
    }

    /** reap_expired_locks: {@code {next, released}}. */
    public static Reaped reaped(String json) {
        JsonNode reply = ScriptJson.parse(json);
        return new Reaped(released(reply), reply.path("next").asLong());
    }

    private static List<ReleasedLock> released(JsonNode reply) {
        return LockRecords.released(reply.path("released"));
    }
}
