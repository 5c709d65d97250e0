package io.editlock.nodes;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.redis.embedded.RedisProcess;
import io.editlock.support.RedisIndependent;
import io.editlock.support.ServerNode;
import io.editlock.support.TestRedis;
import io.editlock.support.TestTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/configuration.md: a production node whose settings would take locks away from people at work,
 * drop every socket or refuse everything does not start; its message names the setting. Zero does not
 * mean "off" for any of them.
 */
@RedisIndependent
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RefusedSettingsIT {

    private RedisProcess redis;

    @BeforeAll
    void startRedis() {
        redis = RedisProcess.onFreePort(TestRedis.binary()).start();
    }

    @AfterAll
    void stopRedis() throws Exception {
        redis.close();
    }

    /**
     * The console of a production node is asynchronous, and a start refused this early used to end before it
     * wrote anything, most times: the refusal is written at once as well. Three starts, for one could pass
     * by luck.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "settings that cannot work together | must be shorter than editlock.lease.ttl",
                "an allowed origin that is not one  | is not an origin",
                "demo login without a signing key   | demo tokens must be signed with its private half",
                "a Redis pool too small             | quarkus.redis.max-pool-size is 3",
                "a Redis timeout of zero            | quarkus.redis.timeout is",
            })
    void aRefusedNodeSaysWhyWithTheAsynchronousConsoleToo(String refused, String message) throws IOException {
        Map<String, String> settings = new HashMap<>(Map.of("quarkus.redis.hosts", redis.url()));
        if (refused.startsWith("settings")) {
            settings.put("editlock.lease.renew-interval", "30s");
        } else if (refused.startsWith("an allowed origin")) {
            settings.put("editlock.websocket.allowed-origins", "*");
        } else if (refused.startsWith("a Redis pool")) {
            settings.put("quarkus.redis.max-pool-size", "3");
        } else if (refused.startsWith("a Redis timeout")) {
            settings.put("quarkus.redis.timeout", "0s");
        } else {
            settings.put("editlock.demo-login.enabled", "true");
            settings.put(
                    "mp.jwt.verify.publickey.location",
                    TestTokens.generate().publicKeyFile().toString());
        }
        for (int start = 0; start < 3; start++) {
            try (ServerNode node = ServerNode.launchWithAsyncConsole("node-settings-async", settings)) {
                int exit = node.awaitExit(Duration.ofSeconds(60));
                String log = Files.readString(node.log());
                assertNotEquals(0, exit, "the start must fail; its log: " + log);
                assertTrue(log.contains(message), "start " + start + " says why; the log: " + log);
            }
        }
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // leases would run out between two renewals
                "editlock.lease.renew-interval     | 30s | must be shorter than editlock.lease.ttl",
                // every socket would be dropped between two pings
                "editlock.websocket.ping-timeout   | 10s | must be longer than editlock.websocket.ping-interval",
                // every lock would be released as idle at once
                "editlock.session.idle-timeout     | 0s  | editlock.session.idle-timeout",
                // meant as "never": would overflow the socket sweep's clock, which ends sockets at their token's end
                "editlock.session.idle-timeout     | 1000000d | editlock.session.idle-timeout",
                // every touch, unlock and resume would be refused
                "editlock.limits.frames-per-second | 0   | editlock.limits.frames-per-second",
                // a dropped socket would keep its locks after its user counts as gone
                "editlock.session.grace-period     | 30m | must be shorter than editlock.session.idle-timeout",
                // every lock request would be refused; the message names the key as it is set
                "editlock.rate-limit.lock-requests-per-second | 0 | editlock.rate-limit.lock-requests-per-second",
                // every demo token would be spent before its first use
                "editlock.demo-login.token-lifetime | 0s | editlock.demo-login.token-lifetime",
                // every Redis command would fail at once
                "quarkus.redis.timeout             | 0s  | quarkus.redis.timeout is",
                // every request would fail (500): no key to verify tokens with
                "mp.jwt.verify.publickey.location  | /nonexistent/jwt-public-key.pem | jwt-public-key.pem does not exist",
                // what a container runtime makes of a bind-mounted key file that is missing
                "mp.jwt.verify.publickey.location  | /tmp | /tmp is a directory",
            })
    void aNodeWithSettingsThatCannotWorkDoesNotStart(String setting, String value, String message) throws IOException {
        try (ServerNode node =
                ServerNode.launch("node-settings", Map.of("quarkus.redis.hosts", redis.url(), setting, value))) {
            int exit = node.awaitExit(Duration.ofSeconds(60));
            String log = Files.readString(node.log());
            assertNotEquals(0, exit, setting + "=" + value + " must stop the start; its log: " + log);
            assertTrue(log.contains(message), "the message must say what is wrong (" + message + "); the log: " + log);
            assertTrue(
                    log.lines().filter(line -> line.contains(" ERROR ")).allMatch(line -> line.contains("Application")),
                    "nothing runs before the settings are checked, so the refusal is the one error: " + log);
        }
    }
}
