package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Slots as {@code CLUSTER KEYSLOT} of Redis 7 answers them. */
class ClusterSlotsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "foo|12182",
                "bar|5061",
                "123456789|12739",
                "{user1000}.following|3443",
                "editlock:store-mark:{0}|13907",
                "a{}b|13694",
                "{}{x}|3257",
                "é|10180"
            })
    void asRedisComputesThem(String key, int slot) {
        assertEquals(slot, ClusterSlots.of(key));
    }
}
