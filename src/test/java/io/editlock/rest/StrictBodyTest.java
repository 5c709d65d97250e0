package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §11: a body is one JSON value with each field once. A second value after it, or a
 * field sent twice, is 400 — the server must not act on a reading of the body the client's own JSON
 * library may not share — and nothing changes.
 */
@QuarkusTest
class StrictBodyTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"name\":\"loose\"}{\"name\":\"second\"}",
                "{\"name\":\"loose\"} trailing",
                "{\"name\":\"loose\"} []",
                "{\"name\":\"first\",\"name\":\"loose\"}"
            })
    void aLooseBodyIs400AndChangesNothing(String body) {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        String name = as(sara).get("/api/configurators/" + c).jsonPath().getString("name");

        // Every error body is JSON with a message (docs/rest-api.md), this one too.
        as(sara).body(body)
                .patch("/api/configurators/" + c)
                .then()
                .statusCode(400)
                .body("message", notNullValue());
        as(sara).body(body).post("/api/configurators").then().statusCode(400).body("message", notNullValue());
        as(sara).body(body)
                .post("/api/configurators/" + c + "/items")
                .then()
                .statusCode(400)
                .body("message", notNullValue());

        as(sara).get("/api/configurators/" + c)
                .then()
                .statusCode(200)
                .body("name", equalTo(name))
                .body("items.size()", equalTo(0));
        as(sara).get("/api/configurators?after=" + c).then().statusCode(200).body("size()", equalTo(0));
    }

    /** JSON is UTF-8: an overlong encoding of "/" (C0 AF) is no character, and must not be stored as one. */
    @ParameterizedTest
    @ValueSource(strings = {"C0AF", "FFFE", "EDA080"})
    void aBodyThatIsNotUtf8Is400AndChangesNothing(String hex) {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        String name = as(sara).get("/api/configurators/" + c).jsonPath().getString("name");
        byte[] invalid = HexFormat.of().parseHex(hex);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes("{\"name\":\"a".getBytes(StandardCharsets.UTF_8));
        body.writeBytes(invalid);
        body.writeBytes("b\"}".getBytes(StandardCharsets.UTF_8));

        as(sara).body(body.toByteArray())
                .patch("/api/configurators/" + c)
                .then()
                .statusCode(400)
                .body("message", notNullValue());

        as(sara).get("/api/configurators/" + c).then().statusCode(200).body("name", equalTo(name));
    }

    /** JSON is UTF-8 only: the same JSON in UTF-16 or UTF-32, which a lenient parser would guess and read, is 400. */
    @ParameterizedTest
    @ValueSource(strings = {"UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"})
    void aBodyInAnotherUnicodeEncodingIs400AndChangesNothing(String encoding) {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        String name = as(sara).get("/api/configurators/" + c).jsonPath().getString("name");

        as(sara).body("{\"name\":\"renamed\"}".getBytes(Charset.forName(encoding)))
                .patch("/api/configurators/" + c)
                .then()
                .statusCode(400)
                .body("message", equalTo("the body is not JSON in UTF-8 (it holds a NUL byte: UTF-16 or UTF-32?)"));

        as(sara).get("/api/configurators/" + c).then().statusCode(200).body("name", equalTo(name));
    }
}
