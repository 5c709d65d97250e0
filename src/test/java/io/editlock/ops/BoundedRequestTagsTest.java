package io.editlock.ops;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.support.DemoLogin;
import io.editlock.support.RedisIndependent;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md (metrics): {@code http_server_requests_seconds} tags each request with its route's
 * template, and Micrometer records no new {@code uri} after 100 of them. Requests that no route answered
 * (refused without a token, not valid percent-encoding, too large, not found, in any spelling of their
 * path) must not use those up, or anyone could keep the routes not called yet out of the metrics. Nor may
 * made-up methods add series: the {@code method} tag has no such bound of its own.
 */
@QuarkusTest
@RedisIndependent
@TestProfile(BoundedRequestTagsTest.FreshMeters.class)
class BoundedRequestTagsTest {

    /** An application of its own, so that its meters have seen no route before this test. */
    public static class FreshMeters implements QuarkusTestProfile {}

    private static final Pattern URI_TAG =
            Pattern.compile("^http_server_requests_seconds_count\\{.*uri=\"([^\"]*)\".*$", Pattern.MULTILINE);
    private static final Pattern METHOD_TAG =
            Pattern.compile("^http_server_requests_seconds_count\\{.*method=\"([^\"]*)\".*$", Pattern.MULTILINE);
    private static final Pattern REQUEST_SERIES =
            Pattern.compile("^http_server_requests_seconds_count\\{.*$", Pattern.MULTILINE);
    private static final Set<String> HTTP_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

    /** Routes of the REST API that nothing calls before the junk below. */
    private static final List<String> FRESH_ROUTES =
            List.of("variables", "filters", "dependencies", "attribute-values");

    @TestHTTPResource("/")
    URI base;

    @Test
    void requestsNoRouteAnsweredLeaveTheRoutesTheirTags() throws IOException {
        for (int i = 0; i < 160; i++) {
            assertEquals(401, status("GET /api/junk-" + i));
        }
        for (String target : List.of(
                "//api/junk-lead",
                "/api/junk-trail//",
                "/api/./junk-dot",
                "/api/x/../junk-dotdot",
                "/api/junk;x=1",
                "/api/junk%2Fslash",
                "/api/variables/%zz",
                "/%zz-junk",
                "/junk-file",
                "/junk-file//",
                "//junk-file-lead",
                "/junk/../index.html",
                "/%69ndex.html")) {
            status("GET " + target);
        }
        assertEquals(413, status("POST /api/junk-large", "Content-Length: 99999999"));
        assertEquals(
                403,
                status(
                        "GET /locking",
                        "Upgrade: websocket",
                        "Connection: Upgrade",
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                        "Sec-WebSocket-Version: 13",
                        "Origin: https://elsewhere.example"));

        String token = DemoLogin.token("metrics-" + System.nanoTime(), "Mia");
        for (String route : FRESH_ROUTES) {
            assertEquals(404, status("GET /api/" + route + "/987654321", "Authorization: Bearer " + token));
        }

        String metrics = given().get("/q/metrics").asString();
        Set<String> uris = uriTags(metrics);
        for (String route : FRESH_ROUTES) {
            assertTrue(
                    uris.contains("/api/" + route + "/{id}"),
                    "a route first called after the junk still shows with its template: " + uris);
        }
        assertTrue(uris.contains("/locking"), "the WebSocket endpoint's refusal keeps its path: " + uris);
        assertTrue(uris.contains("UNKNOWN") && uris.contains("NOT_FOUND"), "the junk is counted, as such: " + uris);
        for (String uri : uris) {
            assertTrue(
                    !uri.contains("junk") && !uri.contains("%") && !uri.contains("index") && !uri.contains("987654321"),
                    "no path as the caller sent it is a uri tag: " + uris);
        }
    }

    @Test
    void madeUpMethodsAddNoSeries() throws IOException {
        String token = DemoLogin.token("methods-" + System.nanoTime(), "Mia");
        given().get("/q/metrics"); // so that the scrapes below find their own series there already
        sendMadeUpMethods("FIRST", token);
        String before = given().get("/q/metrics").asString();
        assertTrue(
                tagValues(METHOD_TAG, before).contains("OTHER"),
                "made-up methods are counted, as such: " + tagValues(METHOD_TAG, before));

        sendMadeUpMethods("THEN", token);
        String after = given().get("/q/metrics").asString();
        assertEquals(
                count(REQUEST_SERIES, before),
                count(REQUEST_SERIES, after),
                "as many request series after 40 more made-up methods as before them");
        for (String method : tagValues(METHOD_TAG, after)) {
            assertTrue(
                    HTTP_METHODS.contains(method) || method.equals("OTHER"),
                    "no method as the caller sent it is a method tag: " + tagValues(METHOD_TAG, after));
        }
    }

    /** Forty methods HTTP does not define, each new, to routes, unrouted paths and files, with and without a token. */
    private void sendMadeUpMethods(String prefix, String token) throws IOException {
        for (int i = 0; i < 10; i++) {
            status(prefix + "A" + i + " /api/configurators");
            status(prefix + "B" + i + " /api/configurators", "Authorization: Bearer " + token);
            status(prefix + "C" + i + " /index.html");
            status(prefix + "D" + i + " /api/junk-" + i, "Authorization: Bearer " + token);
        }
    }

    private static int count(Pattern pattern, String metrics) {
        int count = 0;
        Matcher match = pattern.matcher(metrics);
        while (match.find()) {
            count++;
        }
        return count;
    }

    private static Set<String> uriTags(String metrics) {
        return tagValues(URI_TAG, metrics);
    }

    private static Set<String> tagValues(Pattern tag, String metrics) {
        Set<String> values = new TreeSet<>();
        Matcher match = tag.matcher(metrics);
        while (match.find()) {
            values.add(match.group(1));
        }
        return values;
    }

    /** The status of one request sent as written (no client tidies its path), on a connection of its own. */
    private int status(String requestLine, String... headers) throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            StringBuilder request = new StringBuilder(requestLine).append(" HTTP/1.1\r\nHost: localhost\r\n");
            boolean connectionNamed = false;
            for (String header : headers) {
                request.append(header).append("\r\n");
                connectionNamed |= header.startsWith("Connection:");
            }
            request.append(connectionNamed ? "" : "Connection: close\r\n").append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String statusLine = new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1))
                    .readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        }
    }
}
