package io.editlock.support;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.editlock.redis.embedded.RedisProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A whole editlock server process started from the built jar ({@code target/quarkus-app}), as an
 * operator runs it: for multi-node and fault tests. {@link #kill9()} ends it the way a crash does.
 * Closing a node that {@link #start} started checks its log: a node logs no ERROR, whatever the test
 * did to it or to Redis, nor when it stops (operators alert on ERROR lines).
 */
public final class ServerNode implements AutoCloseable {

    private static final int LINES_BEFORE_AN_ERROR = 10;
    private static final int TRACE_LINES = 40;

    private static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");
    /** Each node's console, kept after the build for a failed test's story (a clean build removes them). */
    private static final Path LOGS = Path.of("target", "node-logs");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final int port;
    private final Path log;
    private boolean errorFree;

    private ServerNode(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts a node on a free port with these settings (as -D system properties) and waits until it is ready. */
    public static ServerNode start(String name, Map<String, String> settings) {
        // Each line written at once: a start that fails on its port must leave that in its log (see launch).
        Map<String, String> synchronousConsole = new HashMap<>(settings);
        synchronousConsole.put("quarkus.log.console.async.enabled", "false");
        for (int attempt = 1; ; attempt++) {
            ServerNode node = spawn(name, synchronousConsole);
            node.errorFree = true;
            try {
                node.awaitReady();
                return node;
            } catch (RuntimeException notReady) {
                // Nobody else holds the process yet: left running, it would outlive the build.
                node.kill9();
                // A free port is free only until someone binds it: the two test runs of .ci/run start
                // nodes and Redis servers side by side, and one may take the port this node was about to
                // bind. Then it starts again on another.
                if (attempt == 3 || !node.lostItsPort()) {
                    throw notReady;
                }
            }
        }
    }

    private boolean listening() throws IOException {
        Pattern own = Pattern.compile("Listening on: http://\\S+:" + port + "(\\D|$)");
        return Files.readString(log).lines().anyMatch(line -> own.matcher(line).find());
    }

    private boolean lostItsPort() {
        try {
            return Files.readString(log).contains("Port " + port + " seems to be in use");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Starts a node like {@link #start}, but does not wait for it to be ready: for a start that must fail,
     * whose message the test reads. Its console writes each line at once: the asynchronous console can
     * lose what it still holds when a start fails and the process ends (Quarkus hands it little time to
     * drain), and docs/operations.md tells operators to do the same.
     */
    public static ServerNode launch(String name, Map<String, String> settings) {
        Map<String, String> synchronousConsole = new HashMap<>(settings);
        synchronousConsole.put("quarkus.log.console.async.enabled", "false");
        return spawn(name, synchronousConsole);
    }

    /** Like {@link #launch}, with the console as production has it: asynchronous. */
    public static ServerNode launchWithAsyncConsole(String name, Map<String, String> settings) {
        return spawn(name, settings);
    }

    private static ServerNode spawn(String name, Map<String, String> settings) {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: multi-node tests run after `package` (./mvnw verify)");
        }
        int port = RedisProcess.freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                // C1 alone, as the test JVM runs (pom.xml): a node under test lives for seconds, and its
                // start takes about half the CPU without C2 (3.7 s instead of 6 to 7.6 s on two cores),
                // while two test runs and several nodes at once share those cores.
                "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.log.console.format=%d{HH:mm:ss,SSS} " + name + " %-5p [%c{2.}] %s%e%n"));
        settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", JAR.toString()));
        try {
            Files.createDirectories(LOGS);
            Path log = Files.createTempFile(LOGS, name + "-", ".log");
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return new ServerNode(process, port, log);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a server node", e);
        }
    }

    /** Creates a configurator through this node's REST API, as the bearer of {@code token}; its id. */
    public long createConfigurator(String token, String name) {
        return given().baseUri(baseUri().toString())
                .header("Authorization", "Bearer " + token)
                .contentType("application/json")
                .body(Map.of("name", name))
                .when()
                .post("/api/configurators")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getLong("id");
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    public int port() {
        return port;
    }

    public Path log() {
        return log;
    }

    /** For a test that takes Redis away: the node may then log ERROR (the Redis client's own, as it stops). */
    public ServerNode errorsExpected() {
        errorFree = false;
        return this;
    }

    /** The exit code, once the process ended by itself within {@code atMost}. */
    public int awaitExit(Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> !process.isAlive());
        return process.exitValue();
    }

    /** SIGTERM, as an orchestrator stops a node, without waiting for it to exit. */
    public void stop() {
        process.destroy();
    }

    /** SIGKILL: no shutdown hook, no close frame, no release. */
    public void kill9() {
        process.destroyForcibly();
        waitFor();
    }

    /**
     * SIGSTOP: the node stands still where it is, alive but silent to Redis and to its clients (a long
     * pause, a node cut off); what reaches it meanwhile waits in its sockets until {@link #thaw}.
     */
    public void freeze() {
        signal("STOP");
    }

    /** SIGCONT: the node frozen by {@link #freeze} goes on, and reads what waited for it. */
    public void thaw() {
        signal("CONT");
    }

    private void signal(String name) {
        Signals.send(process.pid(), name, "the node");
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            waitFor();
        }
        if (errorFree) {
            List<String> errors = errorsWithTheirTraces();
            if (!errors.isEmpty()) {
                throw new AssertionError("the node logged ERROR (see " + log + "):\n" + String.join("\n", errors));
            }
        }
    }

    /**
     * Each ERROR line with the stack trace under it and the lines just before it: a node's log lives in
     * a build's working tree, which CI does not keep, so the failure has to say what happened itself.
     */
    private List<String> errorsWithTheirTraces() {
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + log, e);
        }
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).contains(" ERROR ")) {
                continue;
            }
            shown.addAll(lines.subList(Math.max(0, i - LINES_BEFORE_AN_ERROR), i));
            shown.add(lines.get(i));
            for (int j = i + 1; j < lines.size() && j <= i + TRACE_LINES && isTrace(lines.get(j)); j++) {
                shown.add(lines.get(j));
            }
            shown.add("");
        }
        return shown;
    }

    private static boolean isTrace(String line) {
        return line.startsWith("\t") || line.startsWith("Caused by") || line.startsWith("Suppressed");
    }

    private void waitFor() {
        try {
            process.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits (a minute at most) until the node answers ready: at its start, or once its store is back. */
    public void awaitReady() {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("the node exited at start; its log: " + Files.readString(log));
                    }
                    // Whatever answers on the port is this node only once this node says it listens there:
                    // another test run's node may hold the port this one failed to bind.
                    if (!listening()) {
                        return false;
                    }
                    try {
                        HttpResponse<String> ready = HTTP.send(
                                HttpRequest.newBuilder(baseUri().resolve("q/health/ready"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                        return ready.statusCode() == 200;
                    } catch (IOException e) {
                        return false;
                    }
                });
    }
}
