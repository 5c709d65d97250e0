package io.editlock.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * What the server reads as JSON, REST bodies and WebSocket frames alike, is one JSON value with each
 * field once (docs/protocol.md §4, §11): Jackson by default reads a body's first value and ignores what
 * follows, and takes the last of a field sent twice. Either way the server would act on something other
 * than what the client's own JSON reading saw, so both are malformed input (400, {@code BAD_REQUEST}).
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /** A mapper read as the server reads, for code and tests outside the container. */
    public static ObjectMapper mapper() {
        ObjectMapper mapper = new ObjectMapper();
        new StrictJson().customize(mapper);
        return mapper;
    }
}
