package io.editlock.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.websockets.next.CloseReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How a close code decides the wait for a resume (docs/protocol.md §5); plain JUnit, no server. */
class SocketEndTest {

    @Test
    void normalClosureMeansTheClientIsDone() {
        assertEquals(SocketEnd.DONE, SocketEnd.of(new CloseReason(1000), false));
    }

    @Test
    void goingAwayIsAPageThatMayReload() {
        assertEquals(SocketEnd.PAGE_GONE, SocketEnd.of(new CloseReason(1001), false));
    }

    @ParameterizedTest
    @ValueSource(ints = {1008, 1009, 1011, 4000, 4401})
    void everyOtherCodeIsADrop(int code) {
        assertEquals(SocketEnd.DROPPED, SocketEnd.of(new CloseReason(code), false), "close code " + code);
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 1001})
    void aCloseTheServerStartedIsADropWhateverItsCode(int code) {
        assertEquals(SocketEnd.DROPPED, SocketEnd.of(new CloseReason(code), true), "server close with " + code);
    }

    @Test
    void noCloseFrameIsADrop() {
        assertEquals(SocketEnd.DROPPED, SocketEnd.of(null, false));
    }
}
