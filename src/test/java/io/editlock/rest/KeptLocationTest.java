package io.editlock.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §8: a keyed retry gets the first answer's {@code Location} again. Answers are kept 24 h, and
 * those kept before Locations were paths hold an absolute URI: its retry names the same path, as every
 * answer does now (docs/rest-api.md).
 */
class KeptLocationTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "/api/items/5,                                    /api/items/5",
        "http://localhost:41235/api/items/5,              /api/items/5",
        "https://studio.example.com/api/configurators/61, /api/configurators/61",
        "http://node-b:8080/api/items/5/filters/%2F,      /api/items/5/filters/%2F",
        "not a URI %,                                     not a URI %",
    })
    void aKeptLocationIsReplayedAsItsPath(String kept, String replayed) {
        assertEquals(replayed, IdempotentCreates.relative(kept));
    }
}
