package io.editlock.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.IMethodCoverage;
import org.jacoco.core.data.ExecutionDataStore;
import org.jacoco.core.runtime.RemoteControlReader;
import org.jacoco.core.runtime.RemoteControlWriter;

/**
 * The road of a request (docs/architecture.md): the source files of the server whose code runs
 * while one request is answered and its change reaches a watcher. The server runs under the JaCoCo
 * agent ({@code output=tcpserver}); each run resets its counters, makes the request, waits for the
 * reply and the broadcast, and reads which classes ran. A file is on the road when it ran in every
 * run: timers (pings, sweeps) that fire inside one window are named apart, as "seen in some runs".
 *
 * <p>Each measured request is the first of its user in that second, so the road includes the steps
 * the architecture page marks <i>first</i> (the rate limit's reservation, the socket's resume record).
 */
final class Road {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Longer than a second: every measured request opens a new second of its user's rate. */
    private static final long SETTLE_MILLIS = 1_200;
    /** An idle window: about as long as a measured request with its broadcast. */
    private static final long REQUEST_WINDOW_MILLIS = 50;

    private final URI target;
    private final int agentPort;
    private final Path sources;
    private final List<Path> classes;
    /** The server's Redis, for the commands a request costs; null: not counted. */
    private final Resp redis;
    /** Per measured run of the road at hand: Redis command -> calls. */
    private final List<Map<String, Long>> commands = new ArrayList<>();
    /** Per measured run: Redis read events, the round trips to Redis. */
    private final List<Long> readEvents = new ArrayList<>();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * @param sources the server's Java sources: a class is named by its file there, and classes that
     *     Quarkus generates (client proxies, beans) have none
     * @param classes the jars of the running server (its classes as built, and as Quarkus transformed
     *     them): the agent counts probes, these say which probe is in which method
     */
    Road(URI target, int agentPort, Path sources, List<Path> classes, Resp redis) {
        this.target = target;
        this.agentPort = agentPort;
        this.sources = sources;
        this.classes = classes;
        this.redis = redis;
    }

    /** Sara locks a configurator that Tom watches. */
    void lockRequest(int runs) throws Exception {
        String tom = login("road-tom");
        long configuratorId = post("/api/configurators", tom, null, "{\"name\":\"road\"}")
                .path("id")
                .asLong();
        Client watcher = Client.open(http, target, tom);
        watcher.request("watch", "{\"configuratorId\":" + configuratorId + "}", "lock-updated");
        List<Set<String>> seen = new ArrayList<>();
        Set<String> background = null;
        for (int run = 1; run <= runs; run++) {
            Client sara = Client.open(http, target, login("road-sara"));
            Thread.sleep(SETTLE_MILLIS);
            background = idle(background);
            reset();
            watcher.clear();
            String data = "{\"configuratorId\":" + configuratorId + "}";
            sara.request("lock-configurator", data, "lock-acquired");
            watcher.await(frame -> frame.path("event").asText().equals("lock-updated")
                    && frame.path("data").path("locks").size() > 0);
            seen.add(measured());
            sara.request("unlock-configurator", data, "lock-released");
            sara.close();
        }
        watcher.close();
        print("lock request (lock-configurator, one watcher)", seen, background);
    }

    /** Tom, who holds the filters page of an item, changes one of its filters; Sara watches. */
    void guardedWrite(int runs) throws Exception {
        String tom = login("road-tom");
        long configuratorId = post("/api/configurators", tom, null, "{\"name\":\"road\"}")
                .path("id")
                .asLong();
        long itemId = post("/api/configurators/" + configuratorId + "/items", tom, null, "{\"name\":\"item\"}")
                .path("id")
                .asLong();
        Client holder = Client.open(http, target, tom);
        JsonNode acquired = holder.request(
                "lock-item-subresource", "{\"itemId\":" + itemId + ",\"page\":\"filters\"}", "lock-acquired");
        String token = acquired.path("data").path("lock").path("token").asText();
        long filterId = post("/api/items/" + itemId + "/filters", tom, token, "{\"expression\":\"a > 1\"}")
                .path("id")
                .asLong();
        Client watcher = Client.open(http, target, login("road-sara"));
        watcher.request("watch", "{\"configuratorId\":" + configuratorId + "}", "lock-updated");
        List<Set<String>> seen = new ArrayList<>();
        Set<String> background = null;
        for (int run = 1; run <= runs; run++) {
            Thread.sleep(SETTLE_MILLIS);
            background = idle(background);
            reset();
            watcher.clear();
            send("PATCH", "/api/filters/" + filterId, tom, token, "{\"expression\":\"a > " + run + "\"}", 200);
            watcher.await(frame -> frame.path("event").asText().equals("content-changed"));
            seen.add(measured());
        }
        holder.close();
        watcher.close();
        print("guarded write (PATCH /api/filters/{id}, one watcher)", seen, background);
    }

    // ---- the agent --------------------------------------------------------------------------------

    private void reset() throws IOException {
        agent(false);
        if (redis != null) {
            CommandStats.reset(redis);
        }
    }

    /** {@link #dump}, and the Redis commands since the reset. */
    private Set<String> measured() throws Exception {
        Set<String> ran = dump();
        if (redis != null) {
            readEvents.add(CommandStats.readEvents(redis));
            commands.add(CommandStats.read(redis));
        }
        return ran;
    }

    /**
     * What runs in every window without a request, as long as a measured one: the loops that run all
     * the time (the audit log's writer), not the road. A timer that fires now and then (pings, sweeps)
     * is in some windows only; it is off the road because it is not in every measured run either.
     *
     * @param before what ran in every idle window so far, null at the first
     */
    private Set<String> idle(Set<String> before) throws Exception {
        reset();
        Thread.sleep(REQUEST_WINDOW_MILLIS);
        Set<String> ran = dump();
        if (before != null) {
            ran.retainAll(before);
        }
        return ran;
    }

    /** The methods ({@code Class#method}) that ran since the last reset, of classes with a source file. */
    private Set<String> dump() throws Exception {
        // What the request set off on other threads (the audit line, the broadcast) has ended by now.
        Thread.sleep(200);
        ExecutionDataStore executed = agent(true);
        Set<String> methods = new TreeSet<>();
        for (Path jar : classes) {
            // One builder a jar: a class Quarkus transformed is in two jars, and only one copy matches.
            CoverageBuilder coverage = new CoverageBuilder();
            new Analyzer(executed, coverage).analyzeAll(jar.toFile());
            for (IClassCoverage type : coverage.getClasses()) {
                String file = sourceFile(type.getName());
                if (file == null) {
                    continue;
                }
                for (IMethodCoverage method : type.getMethods()) {
                    if (method.getInstructionCounter().getCoveredCount() > 0) {
                        methods.add(file + "#"
                                + type.getName().substring(type.getName().lastIndexOf('/') + 1) + "."
                                + method.getName());
                    }
                }
            }
        }
        return methods;
    }

    private String sourceFile(String className) {
        int nested = className.indexOf('$');
        String file = (nested < 0 ? className : className.substring(0, nested)) + ".java";
        return Files.exists(sources.resolve(file)) ? file : null;
    }

    private ExecutionDataStore agent(boolean dump) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", agentPort)) {
            RemoteControlWriter writer = new RemoteControlWriter(socket.getOutputStream());
            RemoteControlReader reader = new RemoteControlReader(socket.getInputStream());
            ExecutionDataStore store = new ExecutionDataStore();
            reader.setSessionInfoVisitor(info -> {});
            reader.setExecutionDataVisitor(store);
            writer.visitDumpCommand(dump, true);
            if (!reader.read()) {
                throw new IOException("the JaCoCo agent closed the connection");
            }
            return store;
        }
    }

    /**
     * The road: the files with a method that ran in every run and not in every idle window. A file
     * whose methods ran only in some runs is named apart.
     */
    private void print(String title, List<Set<String>> runs, Set<String> background) {
        Set<String> always = new TreeSet<>(runs.get(0));
        Set<String> some = new TreeSet<>();
        for (Set<String> run : runs) {
            always.retainAll(run);
            some.addAll(run);
        }
        always.removeAll(background);
        some.removeAll(background);
        Map<String, Set<String>> road = byFile(always);
        Map<String, Set<String>> sometimes = byFile(some);
        sometimes.keySet().removeAll(road.keySet());
        System.out.println("== " + title + ": " + road.size() + " files (their methods that ran in every one of "
                + runs.size() + " runs, and not in every window without a request)");
        road.forEach((file, methods) -> System.out.println("  " + file + "  " + methods));
        if (!sometimes.isEmpty()) {
            System.out.println("   ran in some runs only:");
            sometimes.forEach((file, methods) -> System.out.println("   ~ " + file + "  " + methods));
        }
        // Timers add commands to some runs: the run with the fewest is the request's own cost.
        commands.stream()
                .min(Comparator.comparingLong(CommandStats::total))
                .ifPresent(fewest -> System.out.println(
                        "   Redis commands (the run with the fewest; a script's own commands included): "
                                + CommandStats.total(fewest) + " " + fewest));
        readEvents.stream()
                .min(Comparator.naturalOrder())
                .ifPresent(fewest -> System.out.println(
                        "   Redis round trips (read events Redis processed, in the run with the fewest): " + fewest));
        commands.clear();
        readEvents.clear();
    }

    private static Map<String, Set<String>> byFile(Set<String> methods) {
        Map<String, Set<String>> files = new TreeMap<>();
        for (String method : methods) {
            int hash = method.indexOf('#');
            files.computeIfAbsent(method.substring(0, hash), file -> new TreeSet<>())
                    .add(method.substring(hash + 1));
        }
        return files;
    }

    // ---- HTTP -------------------------------------------------------------------------------------

    private String login(String prefix) throws Exception {
        String id = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        return post("/api/auth/demo-login", null, null, "{\"userId\":\"" + id + "\",\"name\":\"" + prefix + "\"}")
                .path("token")
                .asText();
    }

    private JsonNode post(String path, String bearer, String lockToken, String body) throws Exception {
        return send("POST", path, bearer, lockToken, body, path.endsWith("demo-login") ? 200 : 201);
    }

    private JsonNode send(String method, String path, String bearer, String lockToken, String body, int expected)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        if (lockToken != null) {
            request.header("Lock-Token", lockToken);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(
                    method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    // ---- one /locking socket ----------------------------------------------------------------------

    /** A /locking socket that keeps every frame it receives. */
    private static final class Client implements WebSocket.Listener {

        private final List<JsonNode> frames = new CopyOnWriteArrayList<>();
        private final StringBuilder partial = new StringBuilder();
        private WebSocket socket;
        private int sequence;

        static Client open(HttpClient http, URI target, String bearer) throws Exception {
            Client client = new Client();
            URI uri = URI.create("ws://" + target.getHost() + ":" + target.getPort() + "/locking");
            client.socket = http.newWebSocketBuilder()
                    .header("Authorization", "Bearer " + bearer)
                    .buildAsync(uri, client)
                    .get(30, TimeUnit.SECONDS);
            client.await(frame -> frame.path("event").asText().equals("welcome"));
            return client;
        }

        JsonNode request(String event, String data, String expected) throws Exception {
            String ref = "r" + (++sequence);
            ObjectNode frame = JSON.createObjectNode().put("event", event).put("ref", ref);
            frame.set("data", JSON.readTree(data));
            socket.sendText(frame.toString(), true).get(10, TimeUnit.SECONDS);
            JsonNode reply = await(candidate -> ref.equals(candidate.path("ref").asText()));
            if (!expected.equals(reply.path("event").asText())) {
                throw new IllegalStateException(event + " answered " + reply);
            }
            return reply;
        }

        JsonNode await(Predicate<JsonNode> wanted) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                for (JsonNode frame : frames) {
                    if (wanted.test(frame)) {
                        return frame;
                    }
                }
                Thread.sleep(5);
            }
            throw new IllegalStateException("no such frame in 30 s; received " + frames);
        }

        void clear() {
            frames.clear();
        }

        void close() throws Exception {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    frames.add(JSON.readTree(partial.toString()));
                } catch (IOException e) {
                    throw new IllegalStateException("not JSON: " + partial, e);
                } finally {
                    partial.setLength(0);
                }
            }
            webSocket.request(1);
            return CompletableFuture.completedFuture(null);
        }
    }
}
