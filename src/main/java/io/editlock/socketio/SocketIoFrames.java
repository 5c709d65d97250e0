package io.editlock.socketio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Server events in Socket.IO's shape (docs/protocol.md §12). The request handler and the relays write
 * {@code /locking} frames, {@code {"event":E,"data":D}}; as a Socket.IO event that is {@code ["E",D]},
 * and as an acknowledgement {@code [{"event":E,"data":D}]}, the frame itself.
 */
final class SocketIoFrames {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EVENT_PREFIX = "{\"event\":\"";
    private static final String DATA_FIELD = "\",\"data\":";

    private SocketIoFrames() {}

    /** {@code ["E",D]}: cut out of the frame as WireFormat writes it, parsed only if it has another shape. */
    static String eventArguments(String frame) {
        if (frame.startsWith(EVENT_PREFIX) && frame.endsWith("}}")) {
            // The first quote after the name's opening one closes it (event names are plain words);
            // a frame ending in "}}" has an object as data and nothing after it.
            int nameEnd = frame.indexOf('"', EVENT_PREFIX.length());
            if (frame.startsWith(DATA_FIELD, nameEnd)) {
                return "[\"" + frame.substring(EVENT_PREFIX.length(), nameEnd) + "\","
                        + frame.substring(nameEnd + DATA_FIELD.length(), frame.length() - 1) + "]";
            }
        }
        return parsed(frame);
    }

    /** {@code [{"event":E,"data":D}]}: the direct reply as the acknowledgement's one argument. */
    static String ackArguments(String frame) {
        return "[" + frame + "]";
    }

    private static String parsed(String frame) {
        try {
            JsonNode node = JSON.readTree(frame);
            ArrayNode arguments = JSON.createArrayNode();
            arguments.add(node.path("event").asText());
            arguments.add(node.path("data"));
            return JSON.writeValueAsString(arguments);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
