package io.editlock.redis.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A redis-server child process on a loopback port: the zero-setup Redis of dev mode and tests,
 * and the Redis that fault tests stop and restart. It ends with the JVM that started it, however that
 * JVM ends ({@code kill -9} included), so that no forgotten Redis keeps a port and its memory.
 */
public final class RedisProcess implements AutoCloseable {

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /**
     * Runs redis-server in place of the shell (same pid: {@link #pid}, {@link #kill} and {@link
     * Process#isAlive} are the server's) after leaving a watcher behind that reads the server's stdin,
     * a pipe whose other end only this JVM holds. The kernel closes that end when the JVM ends, however
     * it ends; the watcher then reads end-of-file and stops the server, as {@link #close} would, and
     * wakes it first if a fault test had frozen it (SIGSTOP), or the stop would wait for good.
     */
    private static final String ENDS_WITH_THIS_JVM = "exec 3<&0; p=$$; w=$1; shift; "
            + "{ read -r _ <&3; kill \"$p\" 2>/dev/null; kill -CONT \"$p\" 2>/dev/null; } & "
            + "echo $! > \"$w\"; exec 3<&- \"$@\"";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Path binary;
    private final int port;
    private final List<String> extraArgs;
    private final Path workDir;
    private Process process;

    public RedisProcess(Path binary, int port, List<String> extraArgs) {
        this.binary = binary;
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
        try {
            this.workDir = Files.createTempDirectory("editlock-redis-" + port + "-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a work directory for redis-server", e);
        }
    }

    public static RedisProcess onFreePort(Path binary) {
        return new RedisProcess(binary, freePort(), List.of());
    }

    public int port() {
        return port;
    }

    public Path binary() {
        return binary;
    }

    public Path workDir() {
        return workDir;
    }

    /** The redis-server's process id, e.g. to freeze it (SIGSTOP) in a fault test. */
    public synchronized long pid() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("redis-server is not running");
        }
        return process.pid();
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public synchronized RedisProcess start() {
        if (process != null && process.isAlive()) {
            return this;
        }
        if (process != null) {
            // It ended by itself: its watcher still waits on the old pipe.
            stopWatcher();
            closeStdin();
        }
        List<String> command = new ArrayList<>(List.of(
                "sh",
                "-c",
                ENDS_WITH_THIS_JVM,
                "sh",
                watcherPidFile().toString(),
                binary.toString(),
                "--port",
                String.valueOf(port),
                "--bind",
                "127.0.0.1",
                "--daemonize",
                "no",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                workDir.toString(),
                "--protected-mode",
                "yes",
                "--maxclients",
                "10000"));
        command.addAll(extraArgs);
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(workDir.resolve("redis.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + binary, e);
        }
        awaitPong();
        return this;
    }

    /** Stops Redis the hard way, as a crash would. */
    public synchronized void kill() {
        if (process != null) {
            stopWatcher();
            process.destroyForcibly();
            waitForExit();
            closeStdin();
        }
    }

    /** Stops Redis and removes its work directory: a node started again and again leaves nothing behind. */
    @Override
    public synchronized void close() {
        if (process != null) {
            stopWatcher();
            closeStdin();
            process.destroy();
            waitForExit();
            process = null;
        }
        deleteWorkDir();
    }

    /**
     * Stops the server's watcher before the server is stopped or replaced, so that it never signals a
     * pid that is no longer the server's. Its pid is valid until then: it waits for the pipe to close.
     */
    private void stopWatcher() {
        try {
            String pid = Files.readString(watcherPidFile(), StandardCharsets.US_ASCII)
                    .trim();
            ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
            Files.delete(watcherPidFile());
        } catch (IOException | NumberFormatException e) {
            // No watcher was started (the shell failed): nothing to stop.
        }
    }

    private Path watcherPidFile() {
        return workDir.resolve("watcher.pid");
    }

    private void closeStdin() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // Closed already: the watcher has what it waits for.
        }
    }

    private void deleteWorkDir() {
        try (Stream<Path> files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // Already gone, or not ours to delete: nothing Redis needs.
        }
    }

    private void waitForExit() {
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until this process listens and answers. A PONG alone could come from another redis-server
     * that took the port between {@link #freePort} and this one's start (this one then exits, unable
     * to bind): its own log must say it is ready first, and the port is then its own.
     */
    private void awaitPong() {
        Path log = workDir.resolve("redis.log");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new ExitedAtStart(log);
            }
            if (saysReady(log) && answersPing()) {
                return;
            }
            sleep(25);
        }
        throw new IllegalStateException("redis-server did not answer PING on port " + port + ", see " + log);
    }

    /** Redis 6.2 logs "Ready to accept connections", 7 and Valkey add the transports. */
    private static boolean saysReady(Path log) {
        try {
            return Files.readString(log, StandardCharsets.ISO_8859_1).contains("Ready to accept connections");
        } catch (IOException e) {
            return false;
        }
    }

    private boolean answersPing() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            int read = in.read(reply);
            String answer = read > 0 ? new String(reply, 0, read, StandardCharsets.US_ASCII) : "";
            // With an ACL that turns the default user off, a live server answers NOAUTH.
            return answer.startsWith("+PONG") || answer.startsWith("-NOAUTH");
        } catch (IOException e) {
            return false;
        }
    }

    public static int freePort() {
        // A port is free only until someone binds it: one handed out before, maybe not yet bound by whoever
        // got it, is not handed out again by this process.
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new IllegalStateException("no free port", e);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * redis-server ended before it was ready: a port someone else took, a bad argument, a broken binary.
     * The message carries the end of its log, which goes with its work directory.
     */
    public static final class ExitedAtStart extends IllegalStateException {
        ExitedAtStart(Path log) {
            super("redis-server exited at start: " + lastLines(log));
        }

        private static String lastLines(Path log) {
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
                return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
            } catch (IOException e) {
                return "(no log at " + log + ")";
            }
        }
    }
}
