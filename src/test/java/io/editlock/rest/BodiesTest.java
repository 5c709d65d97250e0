package io.editlock.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.editlock.catalog.Entity;
import io.editlock.catalog.InvalidInputException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §11, the checks of request bodies on their own: plain JUnit, no server. Every
 * refusal is a 400 whose message names the field; {@code null} counts as absent; the read-only
 * fields of an entity may be sent back. Bodies are written with single quotes for readability.
 */
class BodiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LONG_NAME = "n".repeat(201);
    private static final String LONG_TEXT = "t".repeat(10_001);
    /** One character outside the BMP: two UTF-16 units, one code point. */
    private static final String EMOJI = "\uD83D\uDE00";

    /** What a request does with its body, by name (the tables' first column). */
    enum Check {
        NAME(Bodies::name),
        ITEM_NAME(Bodies::itemName),
        NEW_ITEM(Bodies::newItem),
        NEW_FILTER(body -> Bodies.newEntry(Entity.FILTER, body)),
        NEW_DEPENDENCY(body -> Bodies.newEntry(Entity.DEPENDENCY, body)),
        NEW_ATTRIBUTE_VALUE(body -> Bodies.newEntry(Entity.ATTRIBUTE_VALUE, body)),
        NEW_VARIABLE(body -> Bodies.newEntry(Entity.VARIABLE, body)),
        CHANGE_DEPENDENCY(body -> Bodies.changes(Entity.DEPENDENCY, body)),
        CHANGE_ATTRIBUTE_VALUE(body -> Bodies.changes(Entity.ATTRIBUTE_VALUE, body)),
        CHANGE_VARIABLE(body -> Bodies.changes(Entity.VARIABLE, body));

        final Function<JsonNode, Object> apply;

        Check(Function<JsonNode, Object> apply) {
            this.apply = apply;
        }
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of(Check.NAME, "{'name':'Plant'}", "Plant"),
                Arguments.of(Check.NAME, "{'name':'Cafe\\u0301'}", "Cafe\u0301"),
                // An item's answer sent back: it does not move, so its parent is read-only here.
                Arguments.of(
                        Check.ITEM_NAME,
                        "{'id':4,'configuratorId':1,'name':'Pump','parentItemId':3,'createdAt':'2026-12-07T08:00:00Z'}",
                        "Pump"),
                Arguments.of(Check.ITEM_NAME, "{'name':'Pump','parentItemId':null}", "Pump"),
                Arguments.of(Check.NAME, "{'name':'" + "n".repeat(200) + "'}", "n".repeat(200)),
                Arguments.of(Check.NAME, "{'name':'" + EMOJI.repeat(200) + "'}", EMOJI.repeat(200)),
                Arguments.of(Check.NAME, "{'name':'" + "n".repeat(199) + EMOJI + "'}", "n".repeat(199) + EMOJI),
                Arguments.of(
                        Check.NEW_FILTER,
                        "{'expression':'" + EMOJI.repeat(10_000) + "'}",
                        Map.of("expression", EMOJI.repeat(10_000))),
                Arguments.of(
                        Check.NEW_ATTRIBUTE_VALUE,
                        "{'name':'" + EMOJI.repeat(200) + "','value':'" + EMOJI.repeat(10_000) + "'}",
                        Map.of("name", EMOJI.repeat(200), "value", EMOJI.repeat(10_000))),
                Arguments.of(
                        Check.NAME,
                        "{'name':'Plant','id':3,'configuratorId':3,'createdAt':'x','createdBy':'u'}",
                        "Plant"),
                Arguments.of(Check.NEW_ITEM, "{'name':'Pump'}", new Bodies.NewItem("Pump", null)),
                Arguments.of(Check.NEW_ITEM, "{'name':'Pump','parentItemId':null}", new Bodies.NewItem("Pump", null)),
                Arguments.of(Check.NEW_ITEM, "{'name':'Pump','parentItemId':7}", new Bodies.NewItem("Pump", 7L)),
                Arguments.of(
                        Check.NEW_ITEM,
                        "{'name':'Pump','parentItemId':9007199254740991}",
                        new Bodies.NewItem("Pump", 9_007_199_254_740_991L)),
                Arguments.of(Check.NEW_FILTER, "{'expression':'a > 1'}", Map.of("expression", "a > 1")),
                Arguments.of(
                        Check.NEW_FILTER, "{'expression':'a > 1','itemId':4,'id':9}", Map.of("expression", "a > 1")),
                Arguments.of(
                        Check.NEW_FILTER,
                        "{'expression':'" + "t".repeat(10_000) + "'}",
                        Map.of("expression", "t".repeat(10_000))),
                Arguments.of(
                        Check.NEW_DEPENDENCY,
                        "{'targetItemId':4,'effect':'hide'}",
                        Map.of("targetItemId", "4", "effect", "hide")),
                Arguments.of(
                        Check.NEW_ATTRIBUTE_VALUE,
                        "{'name':'colour','value':''}",
                        Map.of("name", "colour", "value", "")),
                Arguments.of(
                        Check.NEW_ATTRIBUTE_VALUE,
                        "{'name':'colour','value':'  '}",
                        Map.of("name", "colour", "value", "  ")),
                Arguments.of(
                        Check.NEW_VARIABLE, "{'name':'x','formula':'y + 1'}", Map.of("name", "x", "formula", "y + 1")),
                Arguments.of(Check.CHANGE_VARIABLE, "{'formula':'y + 2'}", Map.of("formula", "y + 2")),
                Arguments.of(Check.CHANGE_VARIABLE, "{'name':null,'formula':'y + 2'}", Map.of("formula", "y + 2")),
                Arguments.of(Check.CHANGE_DEPENDENCY, "{'targetItemId':8}", Map.of("targetItemId", "8")),
                Arguments.of(Check.CHANGE_ATTRIBUTE_VALUE, "{'value':''}", Map.of("value", "")));
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                // Not an object, unknown fields.
                Arguments.of(Check.NAME, "[]", "the body must be a JSON object with name"),
                Arguments.of(Check.NAME, "'Plant'", "the body must be a JSON object with name"),
                Arguments.of(Check.NAME, null, "the body must be a JSON object with name"),
                Arguments.of(Check.NEW_ITEM, "7", "the body must be a JSON object with name, parentItemId"),
                Arguments.of(Check.NEW_DEPENDENCY, "[]", "the body must be a JSON object with targetItemId, effect"),
                Arguments.of(Check.NAME, "{'name':'Plant','colour':'red'}", "unknown field 'colour' (expected name)"),
                Arguments.of(Check.NAME, "{'Name':'Plant'}", "unknown field 'Name' (expected name)"),
                Arguments.of(
                        Check.NEW_VARIABLE,
                        "{'name':'x','formula':'y','value':'1'}",
                        "unknown field 'value' (expected name, formula)"),
                // Missing.
                Arguments.of(Check.NAME, "{}", "name is required"),
                Arguments.of(Check.NAME, "{'name':null}", "name is required"),
                Arguments.of(Check.NEW_ITEM, "{'parentItemId':3}", "name is required"),
                Arguments.of(Check.ITEM_NAME, "{'parentItemId':3}", "name is required"),
                Arguments.of(
                        Check.NAME,
                        "{'name':'Plant','parentItemId':3}",
                        "unknown field 'parentItemId' (expected name)"),
                Arguments.of(Check.NEW_FILTER, "{}", "expression is required"),
                Arguments.of(Check.NEW_DEPENDENCY, "{'effect':'hide'}", "targetItemId is required"),
                Arguments.of(Check.NEW_DEPENDENCY, "{'targetItemId':4}", "effect is required"),
                Arguments.of(Check.NEW_ATTRIBUTE_VALUE, "{'name':'colour','value':null}", "value is required"),
                Arguments.of(Check.CHANGE_VARIABLE, "{}", "nothing to change: send at least one of name, formula"),
                Arguments.of(
                        Check.CHANGE_VARIABLE,
                        "{'name':null,'formula':null}",
                        "nothing to change: send at least one of name, formula"),
                Arguments.of(
                        Check.CHANGE_DEPENDENCY,
                        "{'id':3}",
                        "nothing to change: send at least one of targetItemId, effect"),
                // Mistyped.
                Arguments.of(Check.NAME, "{'name':7}", "name must be a string"),
                Arguments.of(
                        Check.NAME,
                        "{'name':'a\\ud800b'}",
                        "name must be Unicode text (it holds half of a surrogate pair)"),
                Arguments.of(
                        Check.NEW_ATTRIBUTE_VALUE,
                        "{'name':'colour','value':'\\udc00'}",
                        "value must be Unicode text (it holds half of a surrogate pair)"),
                Arguments.of(Check.NAME, "{'name':['Plant']}", "name must be a string"),
                Arguments.of(Check.NAME, "{'name':true}", "name must be a string"),
                Arguments.of(Check.NEW_FILTER, "{'expression':{}}", "expression must be a string"),
                Arguments.of(Check.NEW_ATTRIBUTE_VALUE, "{'name':'colour','value':3}", "value must be a string"),
                Arguments.of(
                        Check.NEW_ITEM,
                        "{'name':'Pump','parentItemId':'7'}",
                        "parentItemId must be an item id (a positive integer)"),
                Arguments.of(
                        Check.NEW_ITEM,
                        "{'name':'Pump','parentItemId':0}",
                        "parentItemId must be an item id (a positive integer)"),
                Arguments.of(
                        Check.NEW_ITEM,
                        "{'name':'Pump','parentItemId':-7}",
                        "parentItemId must be an item id (a positive integer)"),
                Arguments.of(
                        Check.NEW_ITEM,
                        "{'name':'Pump','parentItemId':7.5}",
                        "parentItemId must be an item id (a positive integer)"),
                Arguments.of(
                        Check.NEW_ITEM,
                        "{'name':'Pump','parentItemId':9007199254740992}",
                        "parentItemId must be an item id (a positive integer)"),
                Arguments.of(
                        Check.NEW_DEPENDENCY,
                        "{'targetItemId':'4','effect':'hide'}",
                        "targetItemId must be an item id (a positive integer)"),
                Arguments.of(
                        Check.CHANGE_DEPENDENCY,
                        "{'targetItemId':true}",
                        "targetItemId must be an item id (a positive integer)"),
                // Blank.
                Arguments.of(Check.NAME, "{'name':''}", "name must not be blank"),
                Arguments.of(Check.NAME, "{'name':'   '}", "name must not be blank"),
                Arguments.of(Check.NEW_FILTER, "{'expression':' '}", "expression must not be blank"),
                Arguments.of(Check.NEW_ATTRIBUTE_VALUE, "{'name':'','value':'red'}", "name must not be blank"),
                Arguments.of(Check.CHANGE_VARIABLE, "{'formula':'\\t'}", "formula must not be blank"),
                Arguments.of(Check.NAME, "{'name':'\\u00a0'}", "name must not be blank"),
                Arguments.of(Check.NAME, "{'name':'\\u2007\\u202f'}", "name must not be blank"),
                Arguments.of(Check.NEW_ITEM, "{'name':'\\u200b'}", "name must not be blank"),
                Arguments.of(Check.NEW_FILTER, "{'expression':'\\ufeff '}", "expression must not be blank"),
                Arguments.of(Check.NEW_VARIABLE, "{'name':'x','formula':'\\u0007'}", "formula must not be blank"),
                Arguments.of(Check.NAME, "{'name':'\\u3164'}", "name must not be blank"),
                Arguments.of(Check.NAME, "{'name':'\\u2800\\u2800'}", "name must not be blank"),
                Arguments.of(Check.NAME, "{'name':'\\u0301'}", "name must not be blank"),
                Arguments.of(Check.NAME, "{'name':'\\ufe0f '}", "name must not be blank"),
                // Too long.
                Arguments.of(Check.NAME, "{'name':'" + LONG_NAME + "'}", "name must be at most 200 characters"),
                Arguments.of(Check.NAME, "{'name':'" + EMOJI.repeat(201) + "'}", "name must be at most 200 characters"),
                Arguments.of(
                        Check.NAME,
                        "{'name':'" + "n".repeat(200) + EMOJI + "'}",
                        "name must be at most 200 characters"),
                Arguments.of(
                        Check.NEW_FILTER,
                        "{'expression':'" + EMOJI.repeat(10_001) + "'}",
                        "expression must be at most 10000 characters"),
                Arguments.of(
                        Check.NEW_ATTRIBUTE_VALUE,
                        "{'name':'colour','value':'" + EMOJI.repeat(10_001) + "'}",
                        "value must be at most 10000 characters"),
                Arguments.of(
                        Check.NEW_VARIABLE,
                        "{'name':'" + LONG_NAME + "','formula':'1'}",
                        "name must be at most 200 characters"),
                Arguments.of(
                        Check.NEW_FILTER,
                        "{'expression':'" + LONG_TEXT + "'}",
                        "expression must be at most 10000 characters"),
                Arguments.of(
                        Check.NEW_ATTRIBUTE_VALUE,
                        "{'name':'colour','value':'" + LONG_TEXT + "'}",
                        "value must be at most 10000 characters"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("accepted")
    void aValidBodyGivesItsValues(Check check, String body, Object expected) {
        assertEquals(expected, check.apply.apply(json(body)), check + " of " + body);
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @MethodSource("refused")
    void anInvalidBodyIsRefusedNamingTheField(Check check, String body, String message) {
        JsonNode parsed = json(body);
        InvalidInputException refused = assertThrows(
                InvalidInputException.class, () -> check.apply.apply(parsed), check + " must refuse " + body);
        assertEquals(message, refused.getMessage(), "the 400's message for " + check + " of " + body);
    }

    /** A body of {@code null} is no body at all. */
    private static JsonNode json(String singleQuoted) {
        if (singleQuoted == null) {
            return null;
        }
        try {
            return JSON.readTree(singleQuoted.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
