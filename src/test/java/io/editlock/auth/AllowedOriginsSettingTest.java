package io.editlock.auth;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An {@code editlock.websocket.allowed-origins} entry that is not an origin would never match a page:
 * the server does not start with it, and says which entry it is. Plain JUnit: no server needed.
 */
class AllowedOriginsSettingTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "studio.example.com",
                "*",
                "null",
                "file://",
                "https://studio.example.com/editor",
                "https://admin@studio.example.com",
                "https://studio.example.com?x=1",
                "https://studio.example.com:99999"
            })
    void anEntryThatIsNotAnOriginIsRefused(String entry) {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> new OriginPolicy(List.of("https://fine.example.com", entry)),
                "'" + entry + "' is not an origin");
        assertTrue(
                refused.getMessage().contains("editlock.websocket.allowed-origins")
                        && refused.getMessage().contains("'" + entry + "'"),
                "the message names the setting and the entry: " + refused.getMessage());
    }
}
