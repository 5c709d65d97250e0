package io.editlock.socketio;

import static io.restassured.RestAssured.given;

import io.editlock.support.DemoLogin;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An Engine.IO long-polling session spoken by hand, for what the real client (the Node tests) cannot
 * be made to do: stay silent on pings, send bad payloads.
 */
final class EngineIoClient {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern SID = Pattern.compile("\"sid\":\"([^\"]+)\"");
    private static final Pattern RESUME_TOKEN = Pattern.compile("\"resumeToken\":\"([^\"]+)\"");

    final String sid;
    /** The Socket.IO socket's id (its sid in the connect reply), once connected to /locking. */
    String socketId;
    /** The resume token of its welcome, once connected to /locking. */
    String resumeToken;

    private EngineIoClient(String sid) {
        this.sid = sid;
    }

    static EngineIoClient handshake() {
        return of(open(Map.of()));
    }

    /** The request that opens a session, with headers a browser page would send (Origin, Host). */
    static Response open(Map<String, String> headers) {
        return given().headers(headers)
                .queryParam("EIO", "4")
                .queryParam("transport", "polling")
                .when()
                .get("/socket.io/");
    }

    /** The session that {@code response}, the answer to {@link #open}, opened. */
    static EngineIoClient of(Response response) {
        String open = response.then().statusCode(200).extract().asString();
        Matcher sid = SID.matcher(open);
        if (!open.startsWith("0") || !sid.find()) {
            throw new AssertionError("not an open packet: " + open);
        }
        return new EngineIoClient(sid.group(1));
    }

    /** Handshake and connect to /locking as a new demo user; the connect reply and welcome are read. */
    static EngineIoClient connected(String name) {
        return connected(DemoLogin.user(name)); // first: the session's pings start with the handshake
    }

    /** Handshake and connect to /locking as {@code user}, for a second socket of one user. */
    static EngineIoClient connected(DemoLogin.TestUser user) {
        EngineIoClient client = handshake();
        client.connect(user);
        return client;
    }

    /** Connects this session to /locking as {@code user}; the connect reply and welcome are read. */
    void connect(DemoLogin.TestUser user) {
        post("40/locking,{\"token\":\"" + user.token() + "\"}");
        List<String> packets =
                pollUntil(received -> received.stream().anyMatch(p -> p.startsWith("42/locking,[\"welcome\"")));
        String connect = packets.stream()
                .filter(packet -> !packet.equals("2"))
                .findFirst()
                .filter(packet -> packet.startsWith("40/locking,{\"sid\":"))
                .orElseThrow(() -> new AssertionError("not connected: " + packets));
        Matcher id = SID.matcher(connect);
        id.find();
        socketId = id.group(1);
        packets.stream()
                .filter(packet -> packet.startsWith("42/locking,[\"welcome\""))
                .map(RESUME_TOKEN::matcher)
                .filter(Matcher::find)
                .findFirst()
                .ifPresent(resumeToken -> this.resumeToken = resumeToken.group(1));
    }

    /** The client's close packet: the session ends at once (its socket, if any, as a drop). */
    void close() {
        postRaw("1");
    }

    Response postRaw(String payload) {
        return given().queryParam("EIO", "4")
                .queryParam("transport", "polling")
                .queryParam("sid", sid)
                .contentType("text/plain;charset=UTF-8")
                .body(payload)
                .when()
                .post("/socket.io/");
    }

    void post(String payload) {
        postRaw(payload).then().statusCode(200);
    }

    Response getRaw() {
        return given().queryParam("EIO", "4")
                .queryParam("transport", "polling")
                .queryParam("sid", sid)
                .when()
                .get("/socket.io/");
    }

    /** One long-poll: the packets it brought. */
    List<String> poll() {
        String body = getRaw().then().statusCode(200).extract().asString();
        return EnginePackets.split(body);
    }

    /** Polls until what came so far satisfies {@code done}; answers pings on the way. */
    List<String> pollUntil(Predicate<List<String>> done) {
        List<String> received = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.test(received)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still waiting after " + WAIT + "; received " + received);
            }
            for (String packet : poll()) {
                if (packet.equals("2")) {
                    post("3");
                }
                received.add(packet);
            }
        }
        return received;
    }
}
