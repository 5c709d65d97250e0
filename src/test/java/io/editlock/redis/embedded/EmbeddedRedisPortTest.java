package io.editlock.redis.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A fixed port for the embedded Redis: read before the configuration is validated, and refused by its name. */
class EmbeddedRedisPortTest {

    @ParameterizedTest
    @CsvSource({"1, 1", "6379, 6379", "' 6380 ', 6380", "65535, 65535"})
    void aPortNumberIsTaken(String value, int port) {
        assertEquals(port, EmbeddedRedisConfigSourceFactory.port(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "65536", "-1", "redis", "6379x", "", "99999999999"})
    void anythingElseIsRefusedByThePropertysName(String value) {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> EmbeddedRedisConfigSourceFactory.port(value));
        assertTrue(
                refused.getMessage().startsWith("editlock.embedded-redis.port must be a port number from 1 to 65535"),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("'" + value + "'"), refused.getMessage());
    }
}
