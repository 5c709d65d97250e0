package io.editlock.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import org.junit.jupiter.api.Test;

/**
 * The server runs with the small chunk, so an open socket's message queue does not start at
 * Mutiny's default of 256 slots that every idle socket would carry (docs/benchmarks.md, memory).
 */
@QuarkusTest
class ConnectionQueueSizeTest {

    @Test
    void theServerRunsWithTheSmallChunk() {
        assertEquals(ConnectionQueueSize.CHUNK, Infrastructure.getBufferSizeS());
    }
}
