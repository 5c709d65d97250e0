package io.editlock.redis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads the JSON that scripts answer and publish. */
public final class ScriptJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ScriptJson() {}

    public static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a script answered something that is not JSON: " + json, e);
        }
    }
}
