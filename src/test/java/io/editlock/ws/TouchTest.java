package io.editlock.ws;

import static io.editlock.support.LockFrames.assertExactlyOneReply;
import static io.editlock.support.LockFrames.event;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.DemoLogin;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §4: {@code touch} is answered with {@code touched}, with data or without.
 */
@QuarkusTest
class TouchTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void touchIsAnsweredWithAndWithoutData() {
        try (WsClient s = WsClient.connect(base, DemoLogin.user("Sara").token())) {
            String withData = s.send("touch", Map.of());
            assertEquals("touched", event(s.reply(withData)), "touch with {} must be answered with touched");
            String withoutData = s.send("touch", null);
            assertEquals("touched", event(s.reply(withoutData)), "touch without data must be answered with touched");
            s.sendRaw("{\"event\":\"touch\",\"data\":null,\"ref\":\"null-data\"}");
            assertEquals("touched", event(s.reply("null-data")), "data null is the same as no data");
            assertExactlyOneReply(s, withData);
            assertExactlyOneReply(s, withoutData);
        }
    }
}
