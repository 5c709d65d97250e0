package io.editlock.rest;

import static io.editlock.support.Api.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §7, §8 and §11 over real HTTP: every malformed write (body, {@code Lock-Token},
 * {@code Idempotency-Key}) gets its 400 with a message, and the store is as it was: the configurator's
 * whole tree, and no configurator created after it. The checks the write scripts make themselves (a
 * reference to an item of another configurator) are in the table too, since they run after the write
 * began.
 */
@QuarkusTest
class RefusedWritesChangeNothingTest {

    private static final String LONG_NAME = "n".repeat(201);
    private static final String LONG_TEXT = "t".repeat(10_001);
    private static final long NO_SUCH_ITEM = 999_999_999L;

    /** A configurator with an item, a child item and one entry of every kind. */
    record Tree(
            TestUser sara,
            long c,
            long item,
            long child,
            long filter,
            long dependency,
            long attributeValue,
            long variable) {
        static Tree create() {
            TestUser sara = DemoLogin.user("Sara");
            long c = Api.configurator(sara);
            long item = Api.item(sara, c, null);
            long child = Api.item(sara, c, item);
            return new Tree(
                    sara,
                    c,
                    item,
                    child,
                    Api.filter(sara, item),
                    Api.dependency(sara, item, child),
                    Api.attributeValue(sara, item),
                    Api.variable(sara, c));
        }
    }

    /** One refused write: what it sends, and the message of its 400 (null: any message). */
    record Row(String name, Function<Tree, Response> send, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                row(
                        "new configurator without a name",
                        t -> as(t.sara()).body(Map.of()).post("/api/configurators"),
                        "name is required"),
                row(
                        "new configurator with a blank name",
                        t -> as(t.sara()).body(Map.of("name", "  ")).post("/api/configurators"),
                        "name must not be blank"),
                row(
                        "new configurator with a name of 201 characters",
                        t -> as(t.sara()).body(Map.of("name", LONG_NAME)).post("/api/configurators"),
                        "name must be at most 200 characters"),
                row("body that is not JSON", t -> as(t.sara()).body("{not json").post("/api/configurators"), null),
                row(
                        "body that is not UTF-8",
                        t -> as(t.sara()).body(invalidUtf8Name()).post("/api/configurators"),
                        null),
                row(
                        "Idempotency-Key of 65 characters",
                        t -> as(t.sara())
                                .header("Idempotency-Key", "x".repeat(65))
                                .body(Map.of("name", "Bike"))
                                .post("/api/configurators"),
                        null),
                row(
                        "Idempotency-Key with a tab",
                        t -> as(t.sara())
                                .header("Idempotency-Key", "tab\there")
                                .body(Map.of("name", "Bike"))
                                .post("/api/configurators"),
                        null),
                row(
                        "Idempotency-Key that is not ASCII",
                        t -> as(t.sara())
                                .header("Idempotency-Key", "ünïcode")
                                .body(Map.of("name", "Frame"))
                                .post("/api/configurators/" + t.c() + "/items"),
                        null),
                row(
                        "rename configurator to a number",
                        t -> as(t.sara()).body(Map.of("name", 5)).patch("/api/configurators/" + t.c()),
                        "name must be a string"),
                row(
                        "rename item to a number",
                        t -> as(t.sara()).body(Map.of("name", 5)).patch("/api/items/" + t.item()),
                        "name must be a string"),
                row(
                        "new item whose parent is a string",
                        t -> as(t.sara())
                                .body(Map.of("name", "x", "parentItemId", "7"))
                                .post("/api/configurators/" + t.c() + "/items"),
                        "parentItemId must be an item id (a positive integer)"),
                row(
                        "new item whose parent is no item of the configurator",
                        t -> as(t.sara())
                                .body(Map.of("name", "x", "parentItemId", NO_SUCH_ITEM))
                                .post("/api/configurators/" + t.c() + "/items"),
                        "parentItemId " + NO_SUCH_ITEM + " is not an item of configurator %c"),
                row(
                        "new dependency without a target",
                        t -> as(t.sara())
                                .body(Map.of("effect", "hide"))
                                .post("/api/items/" + t.item() + "/dependencies"),
                        "targetItemId is required"),
                row(
                        "new dependency on no item of the configurator",
                        t -> as(t.sara())
                                .body(Map.of("targetItemId", NO_SUCH_ITEM, "effect", "hide"))
                                .post("/api/items/" + t.item() + "/dependencies"),
                        "item " + NO_SUCH_ITEM + " is not an item of configurator %c"),
                row(
                        "dependency moved to no item of the configurator",
                        t -> as(t.sara())
                                .body(Map.of("targetItemId", NO_SUCH_ITEM))
                                .patch("/api/dependencies/" + t.dependency()),
                        "item " + NO_SUCH_ITEM + " is not an item of configurator %c"),
                row(
                        "filter change that changes nothing",
                        t -> as(t.sara()).body(Map.of()).patch("/api/filters/" + t.filter()),
                        "nothing to change: send at least one of expression"),
                row(
                        "new filter with an unknown field",
                        t -> as(t.sara()).body(Map.of("colour", "red")).post("/api/items/" + t.item() + "/filters"),
                        "unknown field 'colour' (expected expression)"),
                row(
                        "new filter of 10001 characters",
                        t -> as(t.sara())
                                .body(Map.of("expression", LONG_TEXT))
                                .post("/api/items/" + t.item() + "/filters"),
                        "expression must be at most 10000 characters"),
                row(
                        "attribute value of 10001 characters",
                        t -> as(t.sara())
                                .body(Map.of("value", LONG_TEXT))
                                .patch("/api/attribute-values/" + t.attributeValue()),
                        "value must be at most 10000 characters"),
                row(
                        "new variable with a name of 201 characters",
                        t -> as(t.sara())
                                .body(Map.of("name", LONG_NAME, "formula", "1"))
                                .post("/api/configurators/" + t.c() + "/variables"),
                        "name must be at most 200 characters"),
                row(
                        "variable formula that is a number",
                        t -> as(t.sara()).body(Map.of("formula", 5)).patch("/api/variables/" + t.variable()),
                        "formula must be a string"),
                lockToken("abc"),
                lockToken("0"),
                lockToken("-1"),
                lockToken("1.5"),
                lockToken(""),
                // Full-width digits: a number to some parsers, not to the contract's ASCII digits.
                lockToken("\uFF11\uFF12"));
    }

    private static Arguments lockToken(String token) {
        return row(
                "Lock-Token '" + token + "'",
                t -> as(t.sara())
                        .header("Lock-Token", token)
                        .body(Map.of("expression", "x"))
                        .post("/api/items/" + t.item() + "/filters"),
                null);
    }

    private static Arguments row(String name, Function<Tree, Response> send, String message) {
        return Arguments.of(new Row(name, send, message));
    }

    /**
     * One tree for every row: each row checks that it left the tree as it found it, so a row that
     * wrote would fail itself, not the rows after it.
     */
    private static Tree shared;

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aRefusedWriteIs400AndTheStoreIsAsItWas(Row row) {
        if (shared == null) {
            shared = Tree.create();
        }
        Tree tree = shared;
        String before = state(tree);

        Response response = row.send().apply(tree);

        assertEquals(400, response.statusCode(), row + ": " + response.asString());
        String message = response.jsonPath().getString("message");
        if (row.message() == null) {
            assertFalse(message == null || message.isBlank(), row + " names what is wrong: " + response.asString());
        } else {
            assertEquals(row.message().replace("%c", String.valueOf(tree.c())), message, row.toString());
        }
        assertEquals(before, state(tree), row + " changed the store");
    }

    /** The table's store check can fail: a write that is accepted shows in the same state. */
    @Test
    void anAcceptedWriteShowsInTheState() {
        Tree tree = Tree.create();
        String before = state(tree);
        as(tree.sara()).body(Map.of("expression", "x")).post("/api/items/" + tree.item() + "/filters");
        assertFalse(before.equals(state(tree)), "a filter added must show in the tree");
        before = state(tree);
        Api.configurator(tree.sara());
        assertFalse(before.equals(state(tree)), "a configurator created must show in the list");
    }

    /** The configurator's whole tree, and every configurator created after it. */
    private static String state(Tree tree) {
        String configurator = as(tree.sara())
                .get("/api/configurators/" + tree.c())
                .then()
                .statusCode(200)
                .extract()
                .asString();
        String later = as(tree.sara())
                .get("/api/configurators?after=" + tree.c())
                .then()
                .statusCode(200)
                .extract()
                .asString();
        return configurator + "\n" + later;
    }

    private static byte[] invalidUtf8Name() {
        byte[] prefix = "{\"name\":\"".getBytes(StandardCharsets.US_ASCII);
        byte[] suffix = "\"}".getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[prefix.length + 2 + suffix.length];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        body[prefix.length] = (byte) 0xC3;
        body[prefix.length + 1] = (byte) 0x28;
        System.arraycopy(suffix, 0, body, prefix.length + 2, suffix.length);
        return body;
    }
}
