package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

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
    void malformedEventsAreIgnored() {
        for (String message : List.of(
                "not json",
                "{}",
                "{\"c\":\"x\"}",
                "{\"c\":\"7\",\"grants\":[{\"lock\":{}}]}",
                "{\"c\":\"7\",\"gone\":[{\"f\":\"nonsense\",\"u\":\"u\"}]}")) {
            assertDoesNotThrow(() -> relay.deliver(message), message);
        }
    }
}
