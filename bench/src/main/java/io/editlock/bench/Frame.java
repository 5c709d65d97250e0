package io.editlock.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The parts of a server frame the generator looks at: {@code event}, {@code ref}, whether
 * {@code data.locks} is a non-empty array (lock-updated) and {@code data.code} (lock-failed, error).
 * Read with Jackson's streaming parser: no tree per frame.
 */
record Frame(String event, String ref, boolean hasLocks, String code) {

    static final Frame TIMEOUT = new Frame("(timeout)", null, false, "TIMEOUT");
    static final Frame CLOSED = new Frame("(closed)", null, false, "CLOSED");

    private static final JsonFactory JSON = new JsonFactory();

    static Frame parse(String text) {
        String event = null;
        String ref = null;
        boolean hasLocks = false;
        String code = null;
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Frame("(not an object)", null, false, "BAD_FRAME");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "event" -> event = p.getValueAsString();
                    case "ref" -> ref = value == JsonToken.VALUE_NULL ? null : p.getValueAsString();
                    case "data" -> {
                        if (value != JsonToken.START_OBJECT) {
                            p.skipChildren();
                            break;
                        }
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String inner = p.currentName();
                            JsonToken innerValue = p.nextToken();
                            if ("locks".equals(inner) && innerValue == JsonToken.START_ARRAY) {
                                hasLocks = p.nextToken() != JsonToken.END_ARRAY;
                                if (hasLocks) {
                                    p.skipChildren();
                                    while (p.nextToken() != JsonToken.END_ARRAY) {
                                        p.skipChildren();
                                    }
                                }
                            } else if ("code".equals(inner) && innerValue == JsonToken.VALUE_STRING) {
                                code = p.getValueAsString();
                            } else {
                                p.skipChildren();
                            }
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            return new Frame("(not JSON)", null, false, "BAD_FRAME");
        }
        return new Frame(event, ref, hasLocks, code);
    }
}
