package io.editlock.redis.embedded;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.Signals;
import io.editlock.support.TestRedis;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RedisProcessTest {

    @Test
    void closingRemovesTheWorkDirectoryWithItsLog() {
        RedisProcess redis = TestRedis.start();
        assertTrue(Files.exists(redis.workDir().resolve("redis.log")));

        redis.close();

        assertFalse(Files.exists(redis.workDir()), redis.workDir() + " is left behind");
    }

    @Test
    void aKilledRedisKeepsItsWorkDirectoryToStartAgainInIt() {
        try (RedisProcess redis = TestRedis.start()) {
            redis.kill();

            assertTrue(Files.isDirectory(redis.workDir()));
            redis.start();
            assertTrue(Files.exists(redis.workDir().resolve("redis.log")));
        }
    }

    /**
     * A dev-mode or test JVM that is killed ({@code kill -9}, an IDE's stop button) runs no shutdown
     * hook: its Redis must still go, not keep its port and memory until someone finds it.
     */
    @Test
    void aRedisEndsWithTheJvmThatStartedItEvenWhenThatJvmIsKilled() throws Exception {
        killTheJvmAndSeeItsRedisGo(false);
    }

    /** A fault test that dies while it has its Redis frozen (SIGSTOP): the stop must not wait for good. */
    @Test
    void aFrozenRedisEndsWithTheJvmThatStartedIt() throws Exception {
        killTheJvmAndSeeItsRedisGo(true);
    }

    private static void killTheJvmAndSeeItsRedisGo(boolean frozen) throws Exception {
        Process jvm = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        StartsRedisAndWaits.class.getName(),
                        TestRedis.binary().toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        ProcessHandle redis = null;
        try {
            // Other lines may come first (a JVM's notice of options it picked up).
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            Matcher started = CompletableFuture.supplyAsync(() -> out.lines()
                            .map(STARTED::matcher)
                            .filter(Matcher::matches)
                            .findFirst()
                            .orElseThrow(() -> new AssertionError("the child JVM ended without starting Redis")))
                    .get(30, TimeUnit.SECONDS);
            int port = Integer.parseInt(started.group(1));
            redis = ProcessHandle.of(Long.parseLong(started.group(2))).orElseThrow();
            assertTrue(answersPing(port), "the child's Redis runs");
            if (frozen) {
                Signals.send(redis.pid(), "STOP", "redis-server");
            }

            jvm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);

            redis.onExit().get(10, TimeUnit.SECONDS);
            assertFalse(answersPing(port), "nobody answers on its port any more");
        } finally {
            jvm.destroyForcibly();
            if (redis != null) {
                redis.destroyForcibly();
            }
        }
    }

    private static final Pattern STARTED = Pattern.compile("port (\\d+) pid (\\d+)");

    /** The child JVM: {@code port <n> pid <redis-pid>}, then nothing until it is killed. */
    public static final class StartsRedisAndWaits {
        public static void main(String[] args) throws InterruptedException {
            RedisProcess redis = RedisProcess.onFreePort(Path.of(args[0])).start();
            System.out.println("port " + redis.port() + " pid " + redis.pid());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    private static boolean answersPing(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(2000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine()
                    .equals("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A port taken by another redis-server between choosing it and starting (another test, another
     * node starting at the same time) must fail the start: answering for the other server would
     * share its data, and lose it when the other one stops.
     */
    @Test
    void aPortAnotherRedisListensOnIsNotTakenForItsOwn() {
        try (RedisProcess other = TestRedis.start();
                RedisProcess late = new RedisProcess(TestRedis.binary(), other.port(), List.of())) {
            assertThrows(RedisProcess.ExitedAtStart.class, late::start);
        }
    }
}
