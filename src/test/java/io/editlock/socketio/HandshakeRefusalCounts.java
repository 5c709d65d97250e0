package io.editlock.socketio;

import static io.restassured.RestAssured.given;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code editlock_socketio_handshake_refusals_total{reason}} as {@code /q/metrics} shows it now. */
final class HandshakeRefusalCounts {

    private HandshakeRefusalCounts() {}

    static double of(String reason) {
        String body = given().when()
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Pattern sample = Pattern.compile("^editlock_socketio_handshake_refusals_total\\{[^}]*reason=\""
                + Pattern.quote(reason) + "\"[^}]*\\} (\\S+)$");
        return body.lines()
                .map(sample::matcher)
                .filter(Matcher::find)
                .mapToDouble(matcher -> Double.parseDouble(matcher.group(1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no refusals counted for reason " + reason));
    }
}
