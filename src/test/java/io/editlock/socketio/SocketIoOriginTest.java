package io.editlock.socketio;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.DemoLogin;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §12, §3 over Socket.IO: the Origin of the request that opens the session decides both
 * whether a page may read the polling answers (CORS) and whether its connect to /locking is refused
 * with FORBIDDEN; the server's own origin is an http or https page of the site the Host names.
 */
@QuarkusTest
class SocketIoOriginTest {

    private static final String HOST = "editlock.example:8080";

    @ParameterizedTest(name = "Origin {0}, Host {1}: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "http://editlock.example:8080              | editlock.example:8080 | allowed",
                "https://editlock.example:443              | editlock.example      | allowed",
                "ftp://editlock.example:8080               | editlock.example:8080 | FORBIDDEN",
                "chrome-extension://editlock.example:8080  | editlock.example:8080 | FORBIDDEN",
                "file://editlock.example:8080              | editlock.example:8080 | FORBIDDEN",
                "https://evil.example                      | editlock.example:8080 | FORBIDDEN"
            })
    void onlyTheServersOwnWebOriginMayConnect(String origin, String host, String outcome) {
        boolean allowed = outcome.equals("allowed");
        Response open = EngineIoClient.open(Map.of("Origin", origin, "Host", host));
        // Every page may read the polling answers, so that a refused one learns why; only a permitted
        // one is answered with credentials.
        assertEquals(
                origin, open.header("Access-Control-Allow-Origin"), "CORS for a page of " + origin + " on " + host);
        assertEquals(
                allowed ? "true" : null,
                open.header("Access-Control-Allow-Credentials"),
                "credentials for a page of " + origin + " on " + host);

        EngineIoClient client = EngineIoClient.of(open);
        client.post("40/locking,{\"token\":\"" + DemoLogin.user("Sara").token() + "\"}");
        List<String> packets = client.pollUntil(received -> received.stream().anyMatch(p -> p.startsWith("4")));
        String reply =
                packets.stream().filter(p -> p.startsWith("4")).findFirst().orElseThrow();
        assertTrue(
                allowed ? reply.startsWith("40/locking,") : reply.startsWith("44/locking,{\"message\":\"" + outcome),
                "connect from " + origin + " on " + host + ": " + reply);
    }

    /**
     * The sid travels in every URL: a page of another site must not use it to post into (or poll, or
     * upgrade) a session it did not open. A request without an Origin, or from the page that opened the
     * session, or from a permitted page when the opening request had no Origin (a browser's same-site
     * GET), is served.
     */
    @ParameterizedTest(name = "opened from {0}, then a post from {1}: {2}")
    @CsvSource(
            delimiter = '|',
            nullValues = "none",
            value = {
                "none                          | none                          | 200",
                "none                          | http://editlock.example:8080  | 200",
                "none                          | https://evil.example          | 400",
                "http://editlock.example:8080  | http://editlock.example:8080  | 200",
                "http://editlock.example:8080  | none                          | 200",
                "http://editlock.example:8080  | https://evil.example          | 400",
                "https://evil.example          | https://evil.example          | 200"
            })
    void onlyThePageThatOpenedASessionMayUseItsSid(String openedFrom, String postFrom, int status) {
        Map<String, String> opening = new HashMap<>(Map.of("Host", HOST));
        if (openedFrom != null) {
            opening.put("Origin", openedFrom);
        }
        EngineIoClient client = EngineIoClient.of(EngineIoClient.open(opening));
        Map<String, String> posting = new HashMap<>(Map.of("Host", HOST));
        if (postFrom != null) {
            posting.put("Origin", postFrom);
        }

        given().headers(posting)
                .queryParam("EIO", "4")
                .queryParam("transport", "polling")
                .queryParam("sid", client.sid)
                .contentType("text/plain;charset=UTF-8")
                .body("6")
                .when()
                .post("/socket.io/")
                .then()
                .statusCode(status);
    }

    /**
     * A page of another site can send a GET without an Origin (an image, a script): a browser that says
     * where a request comes from names it cross-site, and it is refused; a same-origin one is served.
     */
    @ParameterizedTest(name = "a poll without an Origin, Sec-Fetch-Site {0}: {1}")
    @CsvSource({"cross-site, 400", "same-origin, 200"})
    void aPollWithoutAnOriginThatItsBrowserCallsCrossSiteIsRefused(String fetchSite, int status) {
        EngineIoClient client = EngineIoClient.connected("Sara");
        client.post("42/locking,1[\"touch\",{}]"); // its ack waits: the poll below is answered at once

        given().headers(Map.of("Sec-Fetch-Site", fetchSite, "Sec-Fetch-Mode", "no-cors"))
                .queryParam("EIO", "4")
                .queryParam("transport", "polling")
                .queryParam("sid", client.sid)
                .when()
                .get("/socket.io/")
                .then()
                .statusCode(status);
    }
}
