package io.editlock.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The Socket.IO v5 packet text and the translation of frames into events; plain JUnit, no server. */
class SocketIoPacketTest {

    @Test
    void readsNamespaceAckIdAndPayload() {
        SocketIoPacket packet = SocketIoPacket.parse("2/locking,17[\"lock-variables\",{\"configuratorId\":12}]");
        assertEquals(SocketIoPacket.EVENT, packet.type());
        assertEquals("/locking", packet.namespace());
        assertEquals(17L, packet.ackId());
        assertEquals("[\"lock-variables\",{\"configuratorId\":12}]", packet.payload());
    }

    @Test
    void theMainNamespaceHasNoNamespacePart() {
        SocketIoPacket packet = SocketIoPacket.parse("0{\"token\":\"t\"}");
        assertEquals("/", packet.namespace());
        assertNull(packet.ackId());
        assertEquals("{\"token\":\"t\"}", packet.payload());
    }

    @Test
    void aConnectWithoutAuthAndADisconnectHaveAnEmptyPayload() {
        assertEquals("", SocketIoPacket.parse("0/locking,").payload());
        SocketIoPacket disconnect = SocketIoPacket.parse("1/locking,");
        assertEquals(SocketIoPacket.DISCONNECT, disconnect.type());
        assertEquals("/locking", disconnect.namespace());
    }

    @Test
    void binaryPacketsNameTheirAttachments() {
        SocketIoPacket packet =
                SocketIoPacket.parse("51-/locking,3[\"lock-configurator\",{\"_placeholder\":true,\"num\":0}]");
        assertEquals(SocketIoPacket.BINARY_EVENT, packet.type());
        assertEquals("/locking", packet.namespace());
        assertEquals(3L, packet.ackId());
    }

    @Test
    void refusesWhatIsNoPacket() {
        assertThrows(IllegalArgumentException.class, () -> SocketIoPacket.parse(""), "empty");
        assertThrows(IllegalArgumentException.class, () -> SocketIoPacket.parse("9/locking,"), "type 9");
        assertThrows(
                IllegalArgumentException.class, () -> SocketIoPacket.parse("5/locking,[]"), "binary without a count");
        assertThrows(
                IllegalArgumentException.class,
                () -> SocketIoPacket.parse("2/locking,12345678901234567[]"),
                "ack id too long");
    }

    @Test
    void writesPackets() {
        assertEquals("3/locking,4[{}]", SocketIoPacket.encode(SocketIoPacket.ACK, "/locking", 4L, "[{}]"));
        assertEquals(
                "4{\"message\":\"Invalid namespace\"}",
                SocketIoPacket.encode(SocketIoPacket.CONNECT_ERROR, "/", null, "{\"message\":\"Invalid namespace\"}"));
    }

    @Test
    void aFrameBecomesEventArguments() {
        assertEquals(
                "[\"lock-released\",{\"resource\":{\"type\":\"configurator\"},\"reason\":\"unlock\"}]",
                SocketIoFrames.eventArguments(
                        "{\"event\":\"lock-released\",\"data\":{\"resource\":{\"type\":\"configurator\"},\"reason\":\"unlock\"}}"));
    }

    @Test
    void aFrameOfAnotherShapeIsParsedNotCut() {
        assertEquals(
                "[\"touched\",{}]",
                SocketIoFrames.eventArguments("{\"event\":\"touched\",\"data\":{},\"ref\":\"r}}\"}"));
        assertEquals(
                "[\"error\",{\"message\":\"a \\\"quoted\\\" }}\"}]",
                SocketIoFrames.eventArguments("{\"data\":{\"message\":\"a \\\"quoted\\\" }}\"},\"event\":\"error\"}"));
    }

    @Test
    void theReplyFrameIsTheAcksOneArgument() {
        assertEquals(
                "[{\"event\":\"touched\",\"data\":{}}]",
                SocketIoFrames.ackArguments("{\"event\":\"touched\",\"data\":{}}"));
    }
}
