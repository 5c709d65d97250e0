package io.editlock.redis;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * A Redis connection that would not open. Redis at its {@code maxclients} answers a new connection
 * with an error reply and closes it; the Vert.x client drops an error reply to its handshake's HELLO
 * (it only looks for "unknown command") and never completes the connect, and the socket's close then
 * reaches nobody but Vert.x's own "Unhandled Error: Connection reset". Without this the operator would
 * read neither Redis's words nor which setting to change. One warning a minute for each kind (each
 * error code of Redis, and a connection that fails without a word from Redis), like
 * {@link StoreRefusals}: a node that cannot connect tries again on every command.
 */
final class OpenFailures {

    private static final Logger LOG = Logger.getLogger(OpenFailures.class);
    private static final Duration QUIET = Duration.ofMinutes(1);
    /**
     * A probe that finds a slot free (Redis at its maxclients frees one as a client leaves) hears no
     * refusal: the next failure may probe again soon, not only a minute later.
     */
    private static final Duration PROBE_QUIET = Duration.ofSeconds(5);

    private static final int CHAIN_DEPTH = 5;
    /**
     * The error codes Redis may answer a new connection with, and its words. The client makes error
     * replies of its own, such as CONNECTION_CLOSED and ILLEGAL_STATE: those are not Redis refusing.
     */
    private static final Pattern REPLY = Pattern.compile(
            "^(ERR|DENIED|NOAUTH|WRONGPASS|NOPERM|LOADING|MASTERDOWN|BUSY|MISCONF|READONLY|CLUSTERDOWN)\\b");

    /** A line of a cluster client's failure that names a shard: "- rediss://host:port: why". */
    private static final Pattern NAMED_ENDPOINT = Pattern.compile("(?m)^- ((?:rediss?|unix)://\\S+?):\\s");

    private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();
    private final AtomicLong lastProbe = new AtomicLong(System.nanoTime() - PROBE_QUIET.toNanos());
    /** Why the latest connection failed to open, until one opens; for readiness, which only sees a timeout. */
    private final AtomicReference<String> lastReason = new AtomicReference<>();

    /** Whether this failure is to be looked into with a probe (a few seconds after the last one). */
    boolean probeDue() {
        long now = System.nanoTime();
        long last = lastProbe.get();
        return now - last >= PROBE_QUIET.toNanos() && lastProbe.compareAndSet(last, now);
    }

    /** A failure that is not logged still tells readiness, unless a better reason is already known. */
    void noted(Throwable failure) {
        lastReason.compareAndSet(null, redisReply(failure).orElseGet(() -> describe(failure)));
    }

    void log(String reason, boolean fromRedis) {
        lastReason.set(reason);
        String kind = fromRedis ? reason.split("\\s", 2)[0] : "";
        long now = System.nanoTime();
        boolean[] due = {false};
        lastLogged.compute(kind, (key, last) -> {
            due[0] = last == null || now - last >= QUIET.toNanos();
            return due[0] ? now : last;
        });
        if (!due[0]) {
            return;
        }
        if (fromRedis) {
            String hint = reason.contains("max number of clients")
                    ? "Redis's maxclients is too low for the connections of all nodes (docs/operations.md, Redis"
                            + " connections); "
                    : "";
            LOG.warnf(
                    "Redis refused a connection: %s (%scommands that need one are answered as the lock store being"
                            + " unavailable; logged at most once a minute)",
                    reason, hint);
        } else {
            LOG.warnf(
                    "cannot open a Redis connection: %s (commands that need one are answered as the lock store"
                            + " being unavailable; logged at most once a minute)",
                    reason);
        }
    }

    void opened() {
        lastReason.set(null);
    }

    Optional<String> lastReason() {
        return Optional.ofNullable(lastReason.get());
    }

    /** Redis's own error reply somewhere in the failure's causes, if it is one. */
    static Optional<String> redisReply(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < CHAIN_DEPTH; depth++, cause = cause.getCause()) {
            // Read from the message, as StoreRefusals does: the client's error reply type is not its public API.
            if (cause.getMessage() != null && REPLY.matcher(cause.getMessage()).find()) {
                return Optional.of(cause.getMessage());
            }
        }
        return Optional.empty();
    }

    /**
     * The first shard a Redis Cluster client names in its failure ("Failed to connect to all nodes of the
     * cluster - rediss://10.0.0.7:6380: Failed to create SSL connection"): the endpoint a probe learns most
     * from, for the seeds may be reachable when the shards they point to are not.
     */
    static Optional<String> failedEndpoint(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < CHAIN_DEPTH; depth++, cause = cause.getCause()) {
            if (cause.getMessage() != null) {
                Matcher named = NAMED_ENDPOINT.matcher(cause.getMessage());
                if (named.find()) {
                    return Optional.of(named.group(1));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The failure and its causes, each as its class and message: a connection reset, a timeout and a
     * closed channel often carry no message, and "null" tells an operator nothing.
     */
    static String describe(Throwable failure) {
        StringBuilder chain = new StringBuilder();
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < CHAIN_DEPTH; depth++, cause = cause.getCause()) {
            if (depth > 0) {
                chain.append("; caused by ");
            }
            String message = cause.getMessage();
            chain.append(cause.getClass().getName());
            if (message != null && !message.isBlank()) {
                chain.append(": ").append(message);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return chain.toString();
    }
}
