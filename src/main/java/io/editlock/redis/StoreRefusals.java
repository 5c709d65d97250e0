package io.editlock.redis;

import io.vertx.mutiny.redis.client.Command;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Redis answered a command with an error reply: it can be reached, but it refused (full under
 * {@code noeviction}, an ACL without the command, a replica that is read-only, a script that failed).
 * The user is told the lock store is unavailable, as for any failure; the operator needs the reply,
 * which nothing else on the request's road logs. One warning per kind of reply and minute, so that a
 * full Redis under load does not flood the log.
 */
final class StoreRefusals {

    private static final Logger LOG = Logger.getLogger(StoreRefusals.class);
    private static final Duration QUIET = Duration.ofMinutes(1);
    /** The error codes of Redis replies; NOSCRIPT is not among them: the script is then sent in full. */
    private static final Pattern REFUSAL = Pattern.compile(
            "^(OOM|NOPERM|WRONGTYPE|READONLY|MISCONF|BUSY|LOADING|ERR|EXECABORT|NOAUTH|CROSSSLOT|CLUSTERDOWN"
                    + "|MASTERDOWN|TRYAGAIN)\\b");

    private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();

    void failed(Command command, Throwable failure) {
        String reply = failure.getMessage();
        if (reply == null) {
            return;
        }
        Matcher code = REFUSAL.matcher(reply);
        if (!code.find()) {
            return; // not a reply: the connection failed or timed out, which is logged where it is noticed
        }
        long now = System.nanoTime();
        Long last = lastLogged.get(code.group(1));
        if (last != null && now - last < QUIET.toNanos()) {
            return;
        }
        lastLogged.put(code.group(1), now);
        LOG.warnf(
                "Redis refused %s: %s (the request is answered as the lock store being unavailable; this kind of"
                        + " reply is logged at most once a minute)",
                command, reply);
    }
}
