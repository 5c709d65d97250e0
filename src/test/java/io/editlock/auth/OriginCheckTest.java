package io.editlock.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.support.DemoLogin;
import io.editlock.support.RawWsClient;
import io.editlock.support.RedisIndependent;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §3, §11 on the real {@code /locking} upgrade: the server's own origin is an http or
 * https page of the site its Host names (default ports may be left out on either side), and over TLS
 * only https; any other scheme is refused; allow-list entries compare by scheme, host and port.
 */
@QuarkusTest
@RedisIndependent
@TestProfile(OriginCheckTest.AllowListBehindProxy.class)
class OriginCheckTest {

    /** An allow-list written loosely, and a proxy that ends TLS whose forwarded headers are trusted. */
    public static class AllowListBehindProxy implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "editlock.websocket.allowed-origins",
                    "https://studio.example.com:443, HTTP://Tools.Example.com:80/, chrome-extension://abcdefghijklmnop",
                    "quarkus.http.proxy.proxy-address-forwarding",
                    "true",
                    "quarkus.http.proxy.allow-x-forwarded",
                    "true");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @ParameterizedTest(name = "Origin {0}, Host {1}, proto {2}: {3}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                // the server's own origin
                "http://editlock.example:8080                    | editlock.example:8080 | -     | 101",
                "HTTP://EditLock.Example:8080                    | editlock.example:8080 | -     | 101",
                "https://editlock.example:8080                   | editlock.example:8080 | -     | 101",
                "https://editlock.example                        | editlock.example      | -     | 101",
                "https://editlock.example:443                    | editlock.example      | -     | 101",
                "https://editlock.example                        | editlock.example:443  | -     | 101",
                "http://editlock.example:80                      | editlock.example      | -     | 101",
                "http://editlock.example                         | editlock.example:443  | -     | 403",
                "http://editlock.example:8081                    | editlock.example:8080 | -     | 403",
                "http://editlock.example                         | editlock.example:8080 | -     | 403",
                "http://editlock.example:8080/admin              | editlock.example:8080 | -     | 403",
                "http://user@editlock.example:8080               | editlock.example:8080 | -     | 403",
                // other schemes at the same authority are not pages the server serves
                "ftp://editlock.example:8080                     | editlock.example:8080 | -     | 403",
                "chrome-extension://editlock.example:8080        | editlock.example:8080 | -     | 403",
                "file://editlock.example:8080                    | editlock.example:8080 | -     | 403",
                "ws://editlock.example:8080                      | editlock.example:8080 | -     | 403",
                "file://                                         | editlock.example:8080 | -     | 403",
                "null                                            | editlock.example:8080 | -     | 403",
                // reached over TLS, as the trusted proxy says: a plain http page is not the server's
                "https://editlock.example                        | editlock.example      | https | 101",
                "http://editlock.example                         | editlock.example      | https | 403",
                "http://editlock.example                         | editlock.example      | http  | 101",
                // the allow-list, by scheme, host and port
                "https://studio.example.com                      | editlock.example:8080 | -     | 101",
                "https://studio.example.com:443                  | editlock.example:8080 | -     | 101",
                "https://Studio.Example.com/                     | editlock.example:8080 | -     | 101",
                "http://studio.example.com                       | editlock.example:8080 | -     | 403",
                "https://studio.example.com:8443                 | editlock.example:8080 | -     | 403",
                "https://studio.example.com.evil.example         | editlock.example:8080 | -     | 403",
                "http://tools.example.com                        | editlock.example:8080 | -     | 101",
                "http://tools.example.com:8080                   | editlock.example:8080 | -     | 403",
                "chrome-extension://abcdefghijklmnop             | editlock.example:8080 | -     | 101",
                "chrome-extension://ponmlkjihgfedcba             | editlock.example:8080 | -     | 403"
            })
    void theUpgradeIsOpenOnlyToTheServersOwnOriginAndTheAllowList(
            String origin, String host, String forwardedProto, int status) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Host", host);
        headers.put("Origin", origin);
        headers.put("Authorization", "Bearer " + DemoLogin.user("Sara").token());
        if (forwardedProto != null) {
            headers.put("X-Forwarded-Proto", forwardedProto);
        }
        assertEquals(
                status,
                RawWsClient.upgradeStatus(base, headers),
                "Origin " + origin + " to Host " + host + (forwardedProto == null ? "" : " over " + forwardedProto));
    }
}
