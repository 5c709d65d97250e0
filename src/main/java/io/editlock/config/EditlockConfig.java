package io.editlock.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

/** Every {@code editlock.*} setting, with its default. Documented for operators in docs/configuration.md. */
@ConfigMapping(prefix = "editlock")
public interface EditlockConfig {

    /**
     * The longest any duration setting may be. Durations are turned into nanoseconds and added to clocks;
     * a few hundred years would overflow, and a setting that was meant as "never" (there is no "off")
     * must be refused at start, not break a timer later.
     */
    long LONGEST_DAYS = 365;

    /**
     * The longest an Engine.IO ping setting may be: a Socket.IO client waits for pings with the browser's
     * {@code setTimeout}, which takes a delay over 2^31-1 ms (24.8 days) as none and drops at once.
     */
    long LONGEST_BROWSER_TIMER_DAYS = 24;

    /** Leases of locks in the store. */
    Lease lease();

    /** Redis layout. */
    Redis redis();

    /** The Redis started when {@code quarkus.redis.hosts} is not set (dev mode, tests, or when enabled). */
    @WithName("embedded-redis") // named as it is set: checks that fail name it so
    EmbeddedRedis embeddedRedis();

    /** The {@code /locking} WebSocket. */
    Websocket websocket();

    /** Sockets that go away, and users who stop working. */
    Session session();

    /** Socket.IO clients at {@code /socket.io/}, namespace {@code /locking}. */
    SocketIo socketio();

    /** Limits on how fast one user may ask for locks. */
    @WithName("rate-limit") // named as it is set: checks that fail name it so
    RateLimit rateLimit();

    /** {@code POST /api/auth/demo-login}, for the demo and tests. */
    @WithName("demo-login") // named as it is set: checks that fail name it so
    DemoLogin demoLogin();

    /** {@code Idempotency-Key} on REST creates. */
    Idempotency idempotency();

    /** Take-over with consent (docs/protocol.md §13) and waiting lines (§14). */
    Waiting waiting();

    /** The configurators and their contents. */
    Catalog catalog();

    interface Catalog {
        /**
         * How often every node looks for deleted configurators and items whose items and entries are
         * still in the global indexes (their node died before it took them out).
         */
        @WithDefault("10s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration cleanupInterval();
    }

    interface Waiting {
        /** How long the holder has to answer a take-over request; no answer counts as yes. */
        @WithDefault("30s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration consentWindow();

        /** How many waiting lines one user may be in at once; one more is refused with LIMIT_EXCEEDED. */
        @WithDefault("20")
        @Positive
        int maxLinesPerUser();

        /** How often every node looks for take-over requests whose consent window ended. */
        @WithDefault("1s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration sweepInterval();
    }

    interface Idempotency {
        /** How long a create's answer is kept for retries under the same key (docs/protocol.md §8: 24 h). */
        @WithDefault("24h")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration ttl();
    }

    /** What one user or one socket may ask of a node and of the shared Redis (docs/protocol.md §4). */
    Limits limits();

    interface Limits {
        /** Sockets one user may have open on one node; the next upgrade is refused with 429. */
        @WithDefault("20")
        @Positive
        int socketsPerUser();

        /**
         * Locks one user may hold in one configurator, over all sockets; a lock request for one more (also a
         * {@code wait-for} that finds the page free) is refused with LIMIT_EXCEEDED. Every decision in a
         * configurator reads its locks, so this bounds what one user adds to the cost of everyone's requests
         * there; someone editing holds a few. Grants from a waiting line or a take-over are not refused for it.
         */
        @WithDefault("50")
        @Positive
        int locksPerUserPerConfigurator();

        /** Configurators one socket may watch; a {@code watch} beyond them is refused with LIMIT_EXCEEDED. */
        @WithDefault("100")
        @Positive
        int watchesPerSocket();

        /**
         * Frames other than lock requests (touch, watch, unlock, resume, stop-waiting, answer-takeover, …) one socket may send per
         * second; more are refused with {@code error} RATE_LIMITED. Lock requests have their own
         * per-user limit ({@code editlock.rate-limit.lock-requests-per-second}).
         */
        @WithDefault("200")
        @Positive
        int framesPerSecond();

        /**
         * UTF-8 bytes of frames a socket may have waiting to be sent (a client that does not read); beyond
         * them it is closed with 1008 ("too slow"), which counts as a drop.
         */
        @WithDefault("1048576")
        @Positive
        long maxUnsentBytes();

        /** Sizes and rates of the REST API. */
        Rest rest();
    }

    interface Rest {
        /** REST writes (POST, PATCH, DELETE) one user may send per second, across nodes; more get 429 with Retry-After. */
        @WithDefault("20")
        @Positive
        int writesPerSecond();

        /** Items one configurator may hold; adding one more is refused with 400. */
        @WithDefault("1000")
        @Positive
        int itemsPerConfigurator();

        /** Entries one page may hold (filters, dependencies or attribute values of an item; variables of a configurator). */
        @WithDefault("200")
        @Positive
        int entriesPerPage();

        /** Configurators one {@code GET /api/configurators} answers at most (its largest {@code limit}). */
        @WithDefault("100")
        @Positive
        int listPageSize();
    }

    interface Websocket {
        /**
         * Origins (e.g. {@code https://app.example.com}) whose pages may open the socket, besides
         * the server's own origin. Browser upgrades from any other origin are refused with 403.
         */
        Optional<List<String>> allowedOrigins();

        /** Largest frame accepted; a larger one closes the socket with 1009. */
        @WithDefault("16384")
        @Positive
        int maxFrameBytes();

        /** How often the server pings every socket, so that a dead peer is noticed. */
        @WithDefault("10s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration pingInterval();

        /** A socket that answered no ping for this long is dropped (its locks wait out the grace period). */
        @WithDefault("30s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration pingTimeout();
    }

    interface SocketIo {
        /** Whether the server also speaks Socket.IO (Engine.IO v4, Socket.IO v5) at {@code /socket.io/}. */
        @WithDefault("true")
        boolean enabled();

        /**
         * How often the server pings a Socket.IO client (Engine.IO {@code pingInterval}, announced in
         * the handshake).
         */
        @WithDefault("25s")
        @DurationMax(days = EditlockConfig.LONGEST_BROWSER_TIMER_DAYS)
        @DurationMin(millis = 1)
        Duration pingInterval();

        /** How long a ping may go unanswered before the client counts as dropped (Engine.IO {@code pingTimeout}). */
        @WithDefault("20s")
        @DurationMax(days = EditlockConfig.LONGEST_BROWSER_TIMER_DAYS)
        @DurationMin(millis = 1)
        Duration pingTimeout();

        /**
         * How long an Engine.IO session may stay open without a Socket.IO socket connected on it: the
         * handshake needs no token, so a session nobody connects on is closed after this.
         */
        @WithDefault("10s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration connectTimeout();

        /**
         * How long an upgrade from long-polling to a WebSocket may take, from the client's probe to its
         * upgrade packet. A probe that has not finished by then is closed, and the client stays on
         * long-polling (a proxy that lets the WebSocket open but holds back its frames, say).
         */
        @WithDefault("10s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration upgradeTimeout();

        /**
         * Engine.IO sessions this node keeps with no Socket.IO socket connected on them; a handshake beyond
         * them is refused with 429 and opens nothing. The handshake takes no token, so without a bound anyone
         * could fill the node's memory with sessions. A client sends its CONNECT right after the handshake:
         * this counts only sessions within a round trip (and a token check) of their start, plus abandoned
         * ones until their connect timeout. 1,000 is 10,000 handshakes a second at a round trip of 100 ms,
         * far more than a node is ever asked for, and a few MB of memory at most.
         */
        @WithDefault("1000")
        @Positive
        int maxUnconnectedSessions();

        /**
         * The same, for one client address (the peer's, or the one a trusted proxy forwards): one host
         * cannot take the whole node's share. An office behind one NAT that reconnects at once is far
         * below 50 in any round trip; a client refused tries again after its backoff.
         */
        @WithDefault("50")
        @Positive
        int maxUnconnectedSessionsPerAddress();
    }

    interface Session {
        /** How long the locks of a socket that dropped without a close frame wait for a resume. */
        @WithDefault("10s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 0)
        Duration gracePeriod();

        /**
         * How long the locks of a socket closed with 1001 (the page went away: a tab closed, a link
         * followed, a reload) wait for a resume, so that a reloaded page gets its locks back instead
         * of handing the page to the next user.
         */
        @WithDefault("3s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 0)
        Duration reloadGrace();

        /** A user who sent nothing (no request, no touch) for this long loses their locks (reason idle). */
        @WithDefault("30m")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration idleTimeout();

        /** How often every node checks its sockets for idleness and missing pongs. */
        @WithDefault("1s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration sweepInterval();

        /**
         * How long a node asked to stop (SIGTERM) waits for the clients of its sockets to resume on other
         * nodes, before it releases what nobody resumed (reason disconnect) and exits. Unset: the grace
         * period. {@code 0s}: it does not wait and releases nothing; what is not resumed ends with its
         * leases (reason expired), as after a crash. Dev and test mode use {@code 0s}, so that a restart
         * is quick and its clients resume on the restarted application.
         */
        Optional<@DurationMin(millis = 0) @DurationMax(days = EditlockConfig.LONGEST_DAYS) Duration> stopWait();
    }

    interface RateLimit {
        /** Lock requests ({@code lock-*}) one user may send per second; more are refused with RATE_LIMITED. */
        @WithDefault("50")
        @Positive
        int lockRequestsPerSecond();
    }

    interface DemoLogin {
        /**
         * Whether {@code POST /api/auth/demo-login} hands out tokens. On in dev mode and tests, off in
         * production (404). When on and no verification key is configured, a key pair is generated at
         * start-up (see DemoKeysConfigSourceFactory); no private key is ever committed.
         */
        @WithDefault("false")
        boolean enabled();

        /** Lifetime of a demo token. */
        @WithDefault("12h")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration tokenLifetime();
    }

    interface Lease {
        /**
         * How long a lock lives in the store without renewal. The node that owns the socket renews it
         * every third of this while the socket lives; a dead node's locks go after at most this.
         */
        @WithDefault("30s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration ttl();

        /** How often the owning node renews the leases its live sockets keep; keep it below a third of the TTL. */
        @WithDefault("10s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration renewInterval();

        /** How often every node looks for leases that ran out (to release and announce them). */
        @WithDefault("1s")
        @DurationMax(days = EditlockConfig.LONGEST_DAYS)
        @DurationMin(millis = 1)
        Duration reaperInterval();

        /** How many configurators one reaper pass looks at, at most. */
        @WithDefault("200")
        @Positive
        int reaperBatch();
    }

    interface Redis {
        /**
         * Prefix of every key and channel editlock writes, so that several deployments (or test
         * runs) can share one Redis.
         */
        @WithDefault("editlock")
        String keyPrefix();
    }

    interface EmbeddedRedis {
        /**
         * Whether a node started without {@code quarkus.redis.hosts} runs on an embedded Redis of its
         * own. On in dev mode and tests; off otherwise, where such a start stops with a message naming
         * {@code quarkus.redis.hosts}. Read before the application starts, see EmbeddedRedisConfigSourceFactory.
         */
        @WithDefault("false")
        boolean enabled();

        /**
         * Which redis-server to start when {@code quarkus.redis.hosts} is not set: {@code auto} (one
         * on the PATH, else the one bundled in the embedded-redis artifact), {@code bundled}, or a
         * path to a redis-server binary. Read before the application starts, see
         * EmbeddedRedisConfigSourceFactory.
         */
        @WithDefault("auto")
        String binary();

        /** Port of the embedded Redis; unset means a free loopback port. */
        Optional<@Min(1) @Max(65535) Integer> port();
    }
}
