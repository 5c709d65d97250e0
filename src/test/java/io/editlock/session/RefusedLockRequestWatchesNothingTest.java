package io.editlock.session;

import static io.editlock.support.LockFrames.event;
import static io.editlock.support.LockFrames.mentions;
import static io.editlock.support.LockFrames.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.auth.Identity;
import io.editlock.catalog.ConfiguratorStore;
import io.editlock.events.FanOut;
import io.editlock.lock.Resource;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Fixtures;
import io.editlock.support.RecordingConnection;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: {@code lock-updated} and {@code lock-released} go to the watchers of a
 * configurator, and a socket watches one only once it locks something there. A lock request joins the
 * configurator's room before the store decides it, so that a grant's own change is heard; a request
 * that is refused locks nothing, and its socket must hear nothing of that configurator, however many
 * changes other users make while the store decides. Real sockets, real concurrency: many refused
 * requests interleaved with changes.
 */
@QuarkusTest
class RefusedLockRequestWatchesNothingTest {

    private static final Duration CHURN = Duration.ofSeconds(3);
    /** Lock requests of one refused user a second: below the lock rate (50), so that most are LOCKED. */
    private static final int BURST = 40;

    private static final Set<String> BROADCASTS = Set.of("lock-updated", "lock-released", "content-changed");

    @TestHTTPResource("/")
    URI base;

    @Inject
    ConfiguratorStore store;

    @Inject
    SessionRegistry registry;

    @Inject
    FanOut fanOut;

    @Inject
    FrameSender sender;

    /**
     * The steps one by one, on a connection whose client reads nothing (so that what is unsent stays
     * counted): what the room brings while the store decides is dropped with a refusal, and follows the
     * reply of a grant; a socket that watched before hears it at once.
     */
    @Test
    void aRoomJoinedForALockHoldsItsBroadcastsUntilTheStoreDecides() {
        long c = 7_700_001;
        RecordingConnection connection = RecordingConnection.stalled("on-trial");
        SocketSession session =
                new SocketSession(connection, new Identity("u-on-trial", "On Trial", Set.of()), "node", "resume");
        sender.welcome(session, "{\"event\":\"welcome\"}");
        long welcomed = sender.unsentBytes(session);
        String change = "{\"event\":\"lock-updated\",\"data\":{\"configuratorId\":" + c + "}}";
        try {
            SessionRegistry.LockRoom refused = registry.joinForLock(session, Resource.variables(c));
            fanOut.send(c, registry.watchers(c), change, null);
            assertEquals(1, connection.frames().size(), "held while the store decides: " + connection.frames());
            assertTrue(sender.unsentBytes(session) > welcomed, "what is held counts as unsent");
            refused.notGranted();
            fanOut.send(c, registry.watchers(c), change, null);
            assertEquals(1, connection.frames().size(), "a refused request hears nothing: " + connection.frames());
            assertEquals(welcomed, sender.unsentBytes(session), "what was dropped is no longer unsent");
            assertTrue(!registry.watchers(c).contains(session), "a refused request leaves the room");

            registry.joinForLock(session, Resource.variables(c));
            fanOut.send(c, registry.watchers(c), change, null);
            sender.send(session, "{\"event\":\"lock-acquired\"}");
            registry.replied(session);
            fanOut.send(c, registry.watchers(c), change.replace("lock-updated", "lock-released"), null);
            assertEquals(
                    List.of("lock-acquired", "lock-updated", "lock-released"),
                    events(connection.frames().subList(1, connection.frames().size())),
                    "a grant's reply, then what its room brought meanwhile, then what came after");

            SessionRegistry.LockRoom watched = registry.joinForLock(session, Resource.configurator(c));
            fanOut.send(c, registry.watchers(c), change, null);
            assertEquals(5, connection.frames().size(), "a socket that watched before hears all at once");
            watched.notGranted();
            assertTrue(registry.watchers(c).contains(session), "and keeps watching after a refusal");
        } finally {
            registry.unwatch(session, c);
        }
    }

    private static List<String> events(List<String> frames) {
        return frames.stream()
                .map(frame -> frame.replaceAll("^\\{\"event\":\"([a-z-]+)\".*$", "$1"))
                .toList();
    }

    @Test
    void aSocketWhoseLockRequestsAreRefusedHearsNoneOfTheChangesMadeMeanwhile() throws Exception {
        long c = Fixtures.configurator(store);
        long held = Fixtures.item(store, c);
        Map<String, Object> heldPage = Map.of("itemId", held, "page", "filters");
        ExecutorService threads = Executors.newCachedThreadPool();
        AtomicBoolean stop = new AtomicBoolean();
        List<WsClient> refused = new ArrayList<>();
        try (WsClient holder =
                        WsClient.connectAlone(base, DemoLogin.user("Hana").token());
                WsClient watcher =
                        WsClient.connectAlone(base, DemoLogin.user("Wim").token())) {
            assertEquals("lock-acquired", event(holder.request("lock-item-subresource", heldPage)));
            watcher.request("watch", Map.of("configuratorId", c));

            List<Future<?>> changers = startChanges(threads, c, 3, stop);
            List<Future<Integer>> askers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                WsClient asker =
                        WsClient.connectAlone(base, DemoLogin.user("Bo" + i).token());
                refused.add(asker);
                askers.add(threads.submit(() -> askAgainAndAgain(asker, heldPage)));
            }
            int locked = 0;
            for (Future<Integer> asker : askers) {
                locked += asker.get(30, TimeUnit.SECONDS);
            }
            stop.set(true);
            for (Future<?> changer : changers) {
                changer.get(30, TimeUnit.SECONDS);
            }
            assertTrue(locked >= 100, "too few requests refused LOCKED to prove anything: " + locked);

            // The relay hears changes in order: once the watcher has this one, every change before it was
            // sent to whoever was in the room; the askers' replies to touch follow what was sent to them.
            holder.request("lock-variables", Map.of("configuratorId", c));
            watcher.awaitEvent(isBroadcast("lock-updated", c)
                    .and(f -> types(f.path("data").path("locks")).contains("variables")));
            for (WsClient asker : refused) {
                asker.request("touch", Map.of());
                List<JsonNode> heard = asker.frames(isBroadcast(c));
                assertEquals(
                        0,
                        heard.size(),
                        () -> "a socket whose lock requests were all refused watches nothing, yet it heard "
                                + heard.size() + " broadcasts of configurator " + c + ", the first: " + heard.get(0));
            }
        } finally {
            stop.set(true);
            refused.forEach(WsClient::close);
            threads.shutdownNow();
        }
    }

    @Test
    void aSocketWhoseLockRequestIsGrantedHearsItsGrantWhileOthersChangeLocks() throws Exception {
        long c = Fixtures.configurator(store);
        long mine = Fixtures.item(store, c);
        Map<String, Object> page = Map.of("itemId", mine, "page", "filters");
        TestUser gus = DemoLogin.user("Gus");
        ExecutorService threads = Executors.newCachedThreadPool();
        AtomicBoolean stop = new AtomicBoolean();
        try (WsClient g = WsClient.connectAlone(base, gus.token())) {
            List<Future<?>> changers = startChanges(threads, c, 2, stop);
            for (int round = 0; round < 30; round++) {
                JsonNode reply = g.request("lock-item-subresource", page);
                assertEquals("lock-acquired", event(reply), "round " + round + ": " + reply);
                JsonNode grant = reply.path("data").path("lock");
                g.awaitEvent(isBroadcast("lock-updated", c).and(f -> shows(f, grant)));
                assertEquals("lock-released", event(g.request("unlock-item-subresource", page)));
                // Out of the room again, so that the next request joins it anew.
                assertEquals("unwatched", event(g.request("unwatch", Map.of("configuratorId", c))));
                g.clear();
                Thread.sleep(25); // within the lock rate
            }
            stop.set(true);
            for (Future<?> changer : changers) {
                changer.get(30, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            threads.shutdownNow();
        }
    }

    /**
     * Users who lock and unlock pages of items of their own in the configurator as fast as they may: each
     * round is a grant and a release there, broadcast to its watchers.
     */
    private List<Future<?>> startChanges(ExecutorService threads, long c, int users, AtomicBoolean stop) {
        List<Future<?>> changers = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            long item = Fixtures.item(store, c);
            Map<String, Object> page = Map.of("itemId", item, "page", "filters");
            String token = DemoLogin.user("Ada" + i).token();
            changers.add(threads.submit(() -> {
                try (WsClient changer = WsClient.connectAlone(base, token)) {
                    while (!stop.get()) {
                        changer.request("lock-item-subresource", page);
                        changer.request("unlock-item-subresource", page);
                        changer.clear(); // its own broadcasts: it waits for its replies only
                    }
                }
                return null;
            }));
        }
        return changers;
    }

    /**
     * Bursts of requests for a page another user holds, sent without waiting for their replies (they are
     * handled one after another, so the socket is almost always in a request), one burst a second.
     *
     * @return how many were refused LOCKED
     */
    private static int askAgainAndAgain(WsClient asker, Map<String, Object> heldPage) throws InterruptedException {
        int locked = 0;
        long end = System.nanoTime() + CHURN.toNanos();
        while (System.nanoTime() < end) {
            long burstStarted = System.nanoTime();
            List<String> refs = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                refs.add(asker.send("lock-item-subresource", heldPage));
            }
            for (String ref : refs) {
                JsonNode reply = asker.reply(ref);
                assertEquals("lock-failed", event(reply), "nobody else may get that page: " + reply);
                if ("LOCKED".equals(reply.path("data").path("code").asText())) {
                    locked++;
                }
            }
            long left = TimeUnit.SECONDS.toMillis(1) - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - burstStarted);
            if (left > 0) {
                Thread.sleep(left);
            }
        }
        return locked;
    }

    private static Predicate<JsonNode> isBroadcast(long c) {
        return frame -> !frame.has("ref") && BROADCASTS.contains(event(frame)) && mentions(frame, c);
    }

    private static Predicate<JsonNode> isBroadcast(String name, long c) {
        return isBroadcast(c).and(frame -> name.equals(event(frame)));
    }

    /** Whether the state shows that grant: a broadcast carries no token, but each grant its own acquiredAt. */
    private static boolean shows(JsonNode updated, JsonNode grant) {
        return StreamSupport.stream(updated.path("data").path("locks").spliterator(), false)
                .anyMatch(lock -> lock.path("ownerUserId").equals(grant.path("ownerUserId"))
                        && lock.path("resource").equals(grant.path("resource"))
                        && lock.path("acquiredAt").equals(grant.path("acquiredAt")));
    }
}
