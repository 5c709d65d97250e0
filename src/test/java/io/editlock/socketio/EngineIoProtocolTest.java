package io.editlock.socketio;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Engine.IO v4 over long-polling as the server speaks it (docs/protocol.md §12), by hand: the
 * handshake and its errors, several packets in one body, the maxPayload limit, one poll and one POST
 * at a time, other namespaces.
 */
@QuarkusTest
class EngineIoProtocolTest {

    @Inject
    ConfiguratorStore store;

    @Test
    void badHandshakesAreAnswered400WithTheStandardErrorBody() {
        expect400("EIO=3&transport=polling", 5, "Unsupported protocol version");
        expect400("transport=polling", 5, "Unsupported protocol version");
        expect400("EIO=4&transport=flash", 0, "Transport unknown");
        expect400("EIO=4&transport=polling&sid=unknown", 1, "Session ID unknown");
        expect400("EIO=4&transport=websocket", 3, "Bad request");
        given().when()
                .post("/socket.io/?EIO=4&transport=polling")
                .then()
                .statusCode(400)
                .body("code", equalTo(2))
                .body("message", equalTo("Bad handshake method"));
    }

    @Test
    void theHandshakeAnnouncesPingsAndTheFrameLimitAsMaxPayload() {
        String open = given().when()
                .get("/socket.io/?EIO=4&transport=polling")
                .then()
                .statusCode(200)
                .contentType("text/plain")
                .extract()
                .asString();
        assertTrue(
                open.matches(
                        "0\\{\"sid\":\"[^\"]+\",\"upgrades\":\\[\"websocket\"],\"pingInterval\":25000,\"pingTimeout\":20000,"
                                + "\"maxPayload\":16384}"),
                open);
    }

    @Test
    void noAnswerOfTheTransportIsKeptByACache() {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        given().when()
                .get("/socket.io/?EIO=4&transport=polling")
                .then()
                .statusCode(200)
                .header("Cache-Control", "no-store");
        sara.postRaw("42/locking,[\"touch\",{}]").then().statusCode(200).header("Cache-Control", "no-store");
        sara.getRaw().then().statusCode(200).header("Cache-Control", "no-store");
        given().when()
                .get("/socket.io/?EIO=4&transport=polling&sid=unknown")
                .then()
                .statusCode(400)
                .header("Cache-Control", "no-store");
    }

    @Test
    void packetsOfOneBodyAreAnsweredInOrderAsAckAndAsEvent() {
        long configuratorId = Fixtures.configurator(store);
        EngineIoClient sara = EngineIoClient.connected("Sara");
        sara.post("42/locking,1[\"lock-configurator\",{\"configuratorId\":" + configuratorId
                + "}]\u001e42/locking,[\"touch\",{}]");
        // The room's lock-updated may come before or after the reply: it is a broadcast from another path.
        List<String> replies =
                sara.pollUntil(received -> received.stream().anyMatch(packet -> packet.contains("touched"))).stream()
                        .filter(packet -> !packet.startsWith("42/locking,[\"lock-updated\""))
                        .toList();
        assertTrue(
                replies.get(0).startsWith("43/locking,1[{\"event\":\"lock-acquired\",\"data\":{\"lock\":"),
                replies.toString());
        assertEquals("42/locking,[\"touched\",{}]", replies.get(1), replies.toString());
    }

    @Test
    void aBodyOverMaxPayloadIsRefused413AndEndsTheSession() {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        sara.postRaw("42/locking,[\"touch\",{\"padding\":\"" + "x".repeat(20_000) + "\"}]")
                .then()
                .statusCode(413);
        sara.getRaw().then().statusCode(400).body("code", equalTo(1));
    }

    @Test
    void aSecondPostWhileTheFirstIsStillArrivingIsRefused400AndEndsTheSession() throws IOException {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        double before = activeRequests();
        try (Socket first = halfAPost(sara)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> activeRequests() > before);

            sara.postRaw("42/locking,[\"touch\",{}]")
                    .then()
                    .statusCode(400)
                    .body("code", equalTo(3))
                    .body("message", equalTo("Bad request"));
            sara.getRaw().then().statusCode(400).body("code", equalTo(1));
        }
    }

    @Test
    void aSecondPollWhileTheFirstIsParkedIsRefused400AndEndsTheSession() throws IOException {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        double before = activeRequests();
        try (Socket parked = new Socket("127.0.0.1", RestAssured.port)) {
            parked.getOutputStream()
                    .write(("GET /socket.io/?EIO=4&transport=polling&sid=" + sara.sid + " HTTP/1.1\r\n"
                                    + "Host: 127.0.0.1\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            await().atMost(Duration.ofSeconds(10)).until(() -> activeRequests() > before);

            sara.getRaw().then().statusCode(400).body("code", equalTo(3));
            sara.getRaw().then().statusCode(400).body("code", equalTo(1));
        }
    }

    @Test
    void aPostWhoseConnectionIsLostBeforeItsEndEndsTheSession() throws IOException {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        double before = activeRequests();
        try (Socket lost = halfAPost(sara)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> activeRequests() > before);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> activeRequests() <= before);

        // Once: a retried POST could end the session by overlapping the lost one.
        sara.postRaw("42/locking,[\"touch\",{}]").then().statusCode(400).body("code", equalTo(1));
    }

    /** A POST of the session that announces 100 bytes and sends 10: the server waits for the rest. */
    private static Socket halfAPost(EngineIoClient client) throws IOException {
        Socket socket = new Socket("127.0.0.1", RestAssured.port);
        String head = "POST /socket.io/?EIO=4&transport=polling&sid=" + client.sid + " HTTP/1.1\r\n"
                + "Host: 127.0.0.1\r\nContent-Type: text/plain;charset=UTF-8\r\nContent-Length: 100\r\n\r\n";
        socket.getOutputStream().write((head + "42/locking").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /** HTTP requests the server is answering now (this scrape among them). */
    private static double activeRequests() {
        return RestAssured.get("/q/metrics")
                .asString()
                .lines()
                .filter(line -> line.startsWith("http_server_active_requests"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void binaryAttachmentsAreDroppedAndTheSessionGoesOn() {
        EngineIoClient sara = EngineIoClient.connected("Sara");
        sara.post("451-/locking,7[\"touch\",{\"_placeholder\":true,\"num\":0}]\u001ebAQID");
        List<String> replies = sara.pollUntil(received -> !received.isEmpty());
        assertTrue(
                replies.get(0).startsWith("43/locking,7[{\"event\":\"error\",\"data\":{\"code\":\"BAD_REQUEST\""),
                replies.toString());
        sara.post("42/locking,8[\"touch\",{}]");
        assertEquals(
                List.of("43/locking,8[{\"event\":\"touched\",\"data\":{}}]"),
                sara.pollUntil(received -> !received.isEmpty()));
    }

    @Test
    void otherNamespacesAreRefusedAndEventsToThemChangeNothing() {
        EngineIoClient client = EngineIoClient.handshake();
        client.post("40/admin,\u001e40");
        assertEquals(
                List.of("44/admin,{\"message\":\"Invalid namespace\"}", "44{\"message\":\"Invalid namespace\"}"),
                client.pollUntil(received -> received.size() >= 2));
    }

    @Test
    void socketIoSocketsAreCountedWithTheirTransport() {
        EngineIoClient.connected("Sara");
        // The handshake answers before the namespace's connect is counted: wait for the count.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> given().when()
                        .get("/q/metrics")
                        .then()
                        .statusCode(200)
                        .body(containsString("editlock_sockets_connected{transport=\"socketio\"}"))
                        .body(containsString("editlock_sockets_connected{transport=\"websocket\"}"))
                        .body(not(containsString("editlock_sockets_connected{transport=\"socketio\"} 0.0"))));
    }

    private static void expect400(String query, int code, String message) {
        given().when()
                .get("/socket.io/?" + query)
                .then()
                .statusCode(400)
                .contentType("application/json")
                .body("code", equalTo(code))
                .body("message", equalTo(message));
    }
}
