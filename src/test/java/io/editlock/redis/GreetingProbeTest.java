package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTls;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.RedisOptions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a probe's own connection hears: Redis's refusal, or why the connection failed. The Redis Cluster
 * client reports a shard it could not reach without the cause, and the probe's failure is then all the
 * operator learns of it (docs/operations.md, Redis over TLS).
 */
class GreetingProbeTest {

    private static final Duration WAIT = Duration.ofSeconds(2);

    private static RedisProcess redis;
    private static int tlsPort;
    private static Vertx vertx;

    /** A Redis that also listens for TLS, with a certificate of its own that no JVM trusts by default. */
    @BeforeAll
    static void start() {
        TestTls tls = TestTls.generate();
        tlsPort = RedisProcess.freePort();
        redis = new RedisProcess(TestRedis.binary(), RedisProcess.freePort(), tls.redisArguments(tlsPort, false))
                .start();
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        redis.close();
    }

    @Test
    void aRedisThatTakesTheConnectionSaysNothing() throws Exception {
        GreetingProbe.Heard heard = listen(new RedisOptions(), redis.url());

        assertEquals(GreetingProbe.Heard.NOTHING, heard);
    }

    /** A node that does not trust Redis's certificate fails the handshake: the probe says why. */
    @Test
    void aProbeWhoseHandshakeFailsSaysWhy() throws Exception {
        RedisOptions tls = new RedisOptions()
                .setNetClientOptions(new NetClientOptions().setHostnameVerificationAlgorithm("HTTPS"));

        GreetingProbe.Heard heard = listen(tls, "rediss://127.0.0.1:" + tlsPort);

        assertEquals(Optional.empty(), heard.refusal());
        String why = heard.failure().orElseThrow(() -> new AssertionError("no reason: " + heard));
        assertTrue(why.contains("PKIX path building failed"), why);
    }

    private static GreetingProbe.Heard listen(RedisOptions options, String url) throws Exception {
        return GreetingProbe.listen(vertx, options, url, WAIT)
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }
}
