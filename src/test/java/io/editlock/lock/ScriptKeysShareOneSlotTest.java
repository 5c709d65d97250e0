package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.CatalogScripts;
import io.editlock.catalog.Entity;
import io.editlock.catalog.Idempotency;
import io.editlock.catalog.ItemReference;
import io.editlock.config.EditlockConfig;
import io.editlock.limits.SharedRateLimit;
import io.editlock.lock.redis.LockScripts;
import io.editlock.lock.redis.SocketIndex;
import io.editlock.redis.LockKeys;
import io.editlock.redis.LuaLibrary;
import io.editlock.redis.LuaScript;
import io.editlock.redis.PipelinedRedis;
import io.editlock.redis.ScriptExecutor;
import io.editlock.redis.Scripts;
import io.editlock.redis.StoreClock;
import io.editlock.rest.InFlightMarks;
import io.editlock.session.ResumeStore;
import io.editlock.waiting.WaitingScripts;
import io.editlock.waiting.WaitingState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.inject.Vetoed;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Redis Cluster runs a script only if all the keys it names live in one hash slot, and it must be
 * told every key in KEYS. Every script of the registry ({@link Scripts}) is called through its typed
 * wrapper and recorded with its keys: every call's keys must hash to one slot, and every configurator
 * key must carry the configurator's {@code {c<id>}} tag. Every script's source reaches Redis keys
 * only through variables (taken from KEYS), never through a key name it builds. No Redis needed:
 * the slot function is computed here as Redis Cluster does.
 */
class ScriptKeysShareOneSlotTest {

    private static final long C = 12;
    private static final long BIG = Resource.MAX_ID;

    /** What a script was called with. {@code configuratorId} is the one the call is about, or null. */
    private record Call(String script, List<String> keys, Long configuratorId) {}

    /** Runs nothing: records the keys of each script call and answers a failure. */
    private static final class RecordingExecutor extends ScriptExecutor {
        final List<Call> calls = new ArrayList<>();
        Long about;

        RecordingExecutor() {
            super(null);
        }

        @Override
        public Uni<Response> run(LuaScript script, List<String> keys, List<String> args) {
            calls.add(new Call(script.name(), List.copyOf(keys), about));
            return Uni.createFrom().failure(new IllegalStateException("recorded, not run"));
        }
    }

    // --- the slot function, checked against values Redis Cluster documents -----------------------

    @Test
    void crc16AndSlotsMatchRedisCluster() {
        assertEquals(0x31C3, crc16("123456789"), "CRC16/XMODEM check value of \"123456789\"");
        assertEquals(12182, slot("foo"), "the Redis Cluster slot of \"foo\"");
        assertEquals(slot("{user1000}.following"), slot("{user1000}.followers"), "keys with one hash tag share a slot");
        assertEquals(slot("user1000"), slot("{user1000}.following"), "only the tag is hashed");
        assertEquals(slot("foo{}{bar}"), crc16("foo{}{bar}") % 16384, "an empty tag means the whole key is hashed");
        assertEquals(slot("{bar"), crc16("{bar") % 16384, "an unclosed tag means the whole key is hashed");
    }

    // --- every call of the engine --------------------------------------------------------------

    @Test
    void everyScriptCallNamesKeysOfOneSlot() {
        RecordingExecutor executor = new RecordingExecutor();
        LockKeys keys = new LockKeys("editlock");
        StoreClock clock = new StoreClock(null, Duration.ofSeconds(5));
        LockScripts scripts = new LockScripts(executor, keys, Duration.ofSeconds(30), clock, 50);
        Holder holder = new Holder("7", "Sara", "sock-1", "node-1");
        Duration lease = Duration.ofSeconds(30);

        for (long c : List.of(C, BIG)) {
            executor.about = c;
            scripts.acquire(Resource.configurator(c), holder, lease);
            scripts.acquire(Resource.variables(c), holder, lease);
            scripts.acquire(Resource.itemPage(5, Page.FILTERS).inConfigurator(c), holder, lease);
            scripts.release(Resource.configurator(c), "7", 0, ReleaseReason.UNLOCK, "sock-1");
            scripts.release(Resource.itemPage(5, Page.ATTRIBUTES).inConfigurator(c), "7", 42, ReleaseReason.ADMIN, "");
            scripts.releaseSocket(c, "sock-1", ReleaseReason.DISCONNECT);
            scripts.acquire(Resource.variables(c), holder, lease, 17);
            scripts.cancelRequest(Resource.variables(c), "sock-1", 17, ReleaseReason.UNLOCK, lease);
            scripts.releaseSocket(c, "sock-1", ReleaseReason.IDLE, 16);
            scripts.renewSocket(c, "sock-1", lease, Map.of(), Map.of(), true);
            scripts.moveSocket(c, "sock-1", "sock-2", "node-2", lease);
            scripts.reapExpired(c);
            scripts.list(c);
            executor.about = null; // the reapers' schedule is one global key, about no configurator's data
            scripts.scheduleExpiry(c, 1_000);
            scripts.rescheduleExpiry(c, 1_000, 2_000);
            executor.about = c;
            CatalogScripts catalog =
                    new CatalogScripts(executor, keys, lease, clock, new LockAudit(new SimpleMeterRegistry()));
            Guard guard = new Guard(GuardType.PAGE, c, 5L, Page.FILTERS, "7", OptionalLong.empty());
            catalog.createConfigurator(c, "name", "2026-01-01T00:00:00Z", "7");
            catalog.renameConfigurator(guard, "name");
            catalog.deleteConfigurator(guard, false);
            catalog.addItem(guard, 6, "item", 5L, 0, null);
            catalog.renameItem(guard, "item");
            catalog.deleteItem(guard);
            catalog.addEntry(guard, Entity.FILTER, 9, "{}", null, 0, null);
            catalog.updateEntry(guard, Entity.DEPENDENCY, 9, "{}", new ItemReference("targetItemId", 5));
            catalog.deleteEntry(guard, Entity.VARIABLE, 9);
            catalog.read(c);
            // With an Idempotency-Key, the key's record joins the create's slot (docs/protocol.md §8).
            Idempotency idempotency = new Idempotency(c, "k", "f", Duration.ofHours(24));
            catalog.createConfigurator(c, "name", "2026-01-01T00:00:00Z", "7", idempotency);
            catalog.addItem(guard, 6, "item", 5L, 0, idempotency);
            catalog.addEntry(guard, Entity.FILTER, 9, "{}", null, 0, idempotency);
            WaitingScripts waiting = new WaitingScripts(executor, keys, lease);
            waiting.waitFor(Resource.itemPage(5, Page.FILTERS).inConfigurator(c), holder, true, 18);
            waiting.stopWaiting(Resource.configurator(c), holder);
            waiting.requestTakeover(Resource.variables(c), holder, "please", lease, 19);
            waiting.withdraw(WaitingScripts.Asked.WAIT_FOR, Resource.configurator(c), holder, 18, lease);
            waiting.withdraw(WaitingScripts.Asked.TAKEOVER, Resource.variables(c), holder, 19, lease);
            waiting.answerTakeover(Resource.variables(c), "7", true);
            waiting.askersNodes(c, "var");
            waiting.resolveTakeover(c, "var", List.of("node-gone"));
            waiting.readTakeovers(c, List.of(new WaitingState.AskedTakeover("var", "7", "8")));
            executor.about = null; // a user's lines: one key of the user's, about no configurator
            waiting.reserveLine("7", c + "|var", 20, lease, lease);
            executor.about = c;
        }

        executor.about = null; // one user's counter, configurator record and resume record: keys of their own
        scripts.switchUserConfigurator("7", C + "|2|1000", "60000");
        scripts.putBackUserConfigurator("7", C + "|2|1000", C + "|1|900", "60000");
        new SharedRateLimit(executor, keys::lockRequestRate, 10, System::currentTimeMillis).allow("7");
        ResumeStore resumes = new ResumeStore(new SilentRedis(), null, executor, keys, leaseOf(lease));
        resumes.recordLive("resume-token", "s-8", "7", "node-1").subscribe().with(ignored -> {}, ignored -> {});
        resumes.claim("resume-token", "7", "s-9").subscribe().with(ignored -> {}, ignored -> {});
        resumes.giveBack("resume-token", "s-9").subscribe().with(ignored -> {}, ignored -> {});
        resumes.markDropped("resume-token", lease).subscribe().with(ignored -> {}, ignored -> {});
        new SocketIndex(new SilentRedis(), executor, keys, leaseOf(lease)) // one socket's index: one key
                .listedForResume("s-9", List.of(C, BIG), listed -> listed)
                .subscribe()
                .with(ignored -> {}, ignored -> {});
        InFlightMarks marks = new InFlightMarks(executor, keys, clock); // the mark of one Idempotency-Key: one key
        marks.mark("key-id", "mark").subscribe().with(ignored -> {}, ignored -> {});
        marks.clear("key-id", "mark").subscribe().with(ignored -> {}, ignored -> {});

        Set<String> called = executor.calls.stream().map(Call::script).collect(Collectors.toCollection(TreeSet::new));
        Set<String> every = Scripts.ALL.stream().map(LuaScript::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(every, called, "this test must call every script of the registry; a new script needs a call here");

        for (Call call : executor.calls) {
            assertFalse(
                    call.keys().isEmpty(), call.script() + " is called without keys: it cannot be routed in a cluster");
            Set<Integer> slots =
                    call.keys().stream().map(ScriptKeysShareOneSlotTest::slot).collect(Collectors.toSet());
            assertEquals(1, slots.size(), call.script() + " names keys in several slots " + slots + ": " + call.keys());
            if (call.configuratorId() != null) {
                String tag = LockKeys.hashTag(call.configuratorId());
                for (String key : call.keys()) {
                    assertTrue(
                            key.contains(tag),
                            call.script() + " names key " + key + " of configurator " + call.configuratorId()
                                    + " without its tag " + tag);
                    assertEquals(slot(tag), slot(key), call.script() + ": key " + key + " must hash by its tag " + tag);
                }
            }
        }
    }

    // --- the registry ---------------------------------------------------------------------------

    @Test
    void everyScriptFileIsInTheRegistry() throws Exception {
        Set<String> files;
        try (Stream<Path> lua = Files.list(
                Path.of(getClass().getClassLoader().getResource("lua").toURI()))) {
            files = lua.map(path -> path.getFileName().toString().replace(".lua", ""))
                    .filter(name -> !name.endsWith("_lib"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        Set<String> registered =
                Scripts.ALL.stream().map(LuaScript::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(
                files, registered, "every script under lua/ is run through the registry (Scripts), and only those");
        assertEquals(
                Scripts.ALL.size(),
                Scripts.ALL.stream().map(LuaScript::sha1).distinct().count(),
                "no script is registered twice");
    }

    /** A key that does not come through KEYS cannot be routed in a cluster: no redis.call on a key name made in Lua. */
    @Test
    void everyScriptReachesKeysOnlyThroughKeys() {
        for (LuaScript script : Scripts.ALL) {
            Matcher call = REDIS_CALL.matcher(script.source());
            while (call.find()) {
                String command = call.group(1).toUpperCase(Locale.ROOT);
                if (KEYLESS.contains(command)) {
                    continue;
                }
                String key = String.valueOf(call.group(2)).trim();
                assertTrue(
                        key.matches("[A-Za-z_][A-Za-z0-9_.]*|KEYS\\[\\d+]"),
                        script.name() + " calls " + command + " on " + key
                                + ": keys must come from KEYS, through a variable");
            }
        }
    }

    /** Production's Redis user may run only the commands of deploy/redis-users.acl: every script keeps to them. */
    @Test
    void everyScriptRunsOnlyCommandsTheProductionAclAllows() throws Exception {
        String acl = Files.readString(Path.of("deploy", "redis-users.acl"));
        for (LuaScript script : Scripts.ALL) {
            Matcher call = REDIS_CALL.matcher(script.source());
            while (call.find()) {
                String command = call.group(1).toLowerCase(Locale.ROOT);
                assertTrue(
                        acl.contains(" +" + command + " ")
                                || acl.contains(" +" + command + "\n")
                                || acl.endsWith(" +" + command),
                        script.name() + " calls " + command + ", which deploy/redis-users.acl does not allow");
            }
        }
    }

    /** A library is put in front of a script only when the script (or a library after it) calls into it. */
    @Test
    void everyScriptCarriesOnlyTheLibrariesItUses() throws Exception {
        for (LuaScript script : Scripts.ALL) {
            for (LuaLibrary library : script.libraries()) {
                String text = resource("lua/" + library.file() + ".lua");
                String after = script.source().substring(script.source().indexOf(text) + text.length());
                Matcher functions = LOCAL_FUNCTION.matcher(text);
                boolean used = false;
                while (!used && functions.find()) {
                    used = Pattern.compile("(?<![\\w.])" + functions.group(1) + "\\(")
                            .matcher(after)
                            .find();
                }
                assertTrue(used, script.name() + " carries " + library + " but calls none of its functions");
            }
        }
    }

    private static final Pattern REDIS_CALL = Pattern.compile("redis\\.call\\(\\s*'([A-Za-z]+)'\\s*(?:,([^,)]*))?");
    private static final Pattern LOCAL_FUNCTION = Pattern.compile("local function (\\w+)\\(");
    /** Commands whose first argument is not a key. */
    private static final Set<String> KEYLESS = Set.of("TIME", "PUBLISH");

    private static String resource(String path) throws IOException {
        try (InputStream in = ScriptKeysShareOneSlotTest.class.getClassLoader().getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Answers every command with nothing (a resume record that is not there). Not a bean of the test application. */
    @Vetoed
    private static final class SilentRedis extends PipelinedRedis {
        SilentRedis() {
            super(null, null, null, null, Duration.ofSeconds(1));
        }

        @Override
        public Uni<Response> execute(Command command, String... args) {
            return Uni.createFrom().nullItem();
        }
    }

    /** Settings with only a lease, which is all the resume store reads. */
    private static EditlockConfig leaseOf(Duration ttl) {
        EditlockConfig.Lease lease = (EditlockConfig.Lease) Proxy.newProxyInstance(
                EditlockConfig.class.getClassLoader(),
                new Class<?>[] {EditlockConfig.Lease.class},
                (proxy, method, args) -> ttl);
        return (EditlockConfig) Proxy.newProxyInstance(
                EditlockConfig.class.getClassLoader(),
                new Class<?>[] {EditlockConfig.class},
                (proxy, method, args) -> lease);
    }

    // --- Redis Cluster's key -> slot ----------------------------------------------------------

    /** The slot of a key: CRC16 of its hash tag (first non-empty {...}) or of the whole key, mod 16384. */
    static int slot(String key) {
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                key = key.substring(open + 1, close);
            }
        }
        return crc16(key) % 16384;
    }

    /** CRC16/XMODEM: polynomial 0x1021, initial value 0, no reflection (Redis Cluster's). */
    static int crc16(String text) {
        int crc = 0;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            crc ^= (b & 0xFF) << 8;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
                crc &= 0xFFFF;
            }
        }
        return crc;
    }
}
