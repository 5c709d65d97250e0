package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Waiting events come only from the scripts; one that is not theirs is dropped with a warning, never thrown into the subscription. */
@QuarkusTest
class MalformedWaitEventTest {

    @Inject
    WaitEventRelay relay;

    @Test
    void malformedEventsAreIgnored() throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (String message : List.of(
                "{\"kind\":\"waiting\"}",
                "{\"kind\":\"waiting\",\"c\":\"x\"}",
                "{\"kind\":\"waiting\",\"c\":\"7\",\"grants\":[{\"lock\":{}}]}",
                "{\"kind\":\"waiting\",\"c\":\"7\",\"gone\":[{\"f\":\"nonsense\",\"u\":\"u\"}]}")) {
            JsonNode event = json.readTree(message);
            assertFalse(relay.deliver(event), "nothing to tell the watchers: " + message);
        }
    }
}
