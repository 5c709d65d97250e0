package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.redis.client.impl.types.ErrorType;
import java.net.SocketException;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** What a connection that did not open is logged and reported as. */
class OpenFailuresTest {

    @Test
    void redisOwnReplyIsFoundAmongTheCauses() {
        assertEquals(
                Optional.of("ERR max number of clients reached"),
                OpenFailures.redisReply(
                        new CompletionException(ErrorType.create("ERR max number of clients reached"))));
    }

    /** The client fails pending commands with error replies of its own when a connection ends. */
    @Test
    void theClientsOwnErrorTypesAreNotRedisReplies() {
        assertEquals(Optional.empty(), OpenFailures.redisReply(ErrorType.create("CONNECTION_CLOSED")));
        assertEquals(
                Optional.empty(),
                OpenFailures.redisReply(ErrorType.create("ILLEGAL_STATE Redis Multi cannot have negative length")));
        assertEquals(Optional.empty(), OpenFailures.redisReply(new SocketException("Connection reset")));
    }

    /** The cluster client names the shards it could not reach; its seeds may be reachable all the same. */
    @Test
    void theShardAClusterClientCouldNotReachIsTheOneToProbe() {
        RuntimeException cluster = new RuntimeException("Failed to connect to all nodes of the cluster\n"
                + "- rediss://editlock:secret@10.0.0.7:6380: Failed to create SSL connection\n"
                + "- rediss://editlock:secret@10.0.0.8:6380: Failed to create SSL connection");
        assertEquals(
                Optional.of("rediss://editlock:secret@10.0.0.7:6380"),
                OpenFailures.failedEndpoint(new CompletionException(cluster)));
        RuntimeException seeds = new RuntimeException("Cannot connect to any of the provided endpoints\n"
                + "- javax.net.ssl.SSLHandshakeException: Failed to create SSL connection");
        assertEquals(Optional.empty(), OpenFailures.failedEndpoint(seeds));
    }

    @Test
    void aFailureWithoutMessageIsDescribedByItsClassAndCauses() {
        RuntimeException failure = new RuntimeException(null, new SocketException("Connection reset"));
        assertEquals(
                "java.lang.RuntimeException; caused by java.net.SocketException: Connection reset",
                OpenFailures.describe(failure));
    }
}
