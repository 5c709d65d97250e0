package io.editlock.nodes;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.RedisIndependent;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTls;
import java.util.Map;

/**
 * Two nodes on a Redis reached only over TLS, with client certificates, set up as docs/operations.md
 * ("Redis over TLS") tells an operator: every connection a node opens (its pipelined ones, its
 * subscriptions, the inbox where other nodes ask about sockets) must carry the TLS settings, or these
 * scenarios fail. Both redis-servers the build runs speak TLS the same way, so one pass runs it.
 */
@RedisIndependent
class RedisTlsIT extends MultiNodeScenarios {

    private RedisProcess redisProcess;

    @Override
    Map<String, String> startStore() {
        TestTls tls = TestTls.generate();
        int tlsPort = RedisProcess.freePort();
        // The plain port stays for the harness's own readiness check; the nodes are given only the TLS one.
        redisProcess = new RedisProcess(TestRedis.binary(), RedisProcess.freePort(), tls.redisArguments(tlsPort, true))
                .start();
        return Map.of(
                "quarkus.redis.hosts",
                "rediss://127.0.0.1:" + tlsPort,
                "quarkus.redis.tls-configuration-name",
                "redis",
                "quarkus.tls.redis.trust-store.pem.certs",
                tls.redisCertificate().toString(),
                "quarkus.tls.redis.key-store.pem.node.cert",
                tls.nodeCertificate().toString(),
                "quarkus.tls.redis.key-store.pem.node.key",
                tls.nodeKey().toString(),
                "quarkus.tls.redis.hostname-verification-algorithm",
                "HTTPS");
    }

    @Override
    AutoCloseable store() {
        return redisProcess;
    }
}
