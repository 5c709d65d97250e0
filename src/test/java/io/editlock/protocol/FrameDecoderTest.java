package io.editlock.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.editlock.lock.Page;
import io.editlock.lock.Resource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/protocol.md §4, the decoding of one frame on its own: plain JUnit, no server and no store
 * (the decoder never touches either). What the socket then answers is {@code ws.BadFrameTest}'s part.
 * Frames are written with single quotes for readability; {@link #json} turns them into JSON.
 */
class FrameDecoderTest {

    private static final long MAX_ID = 9_007_199_254_740_991L;
    private static final String NOT_JSON = "the frame is not JSON";
    private static final String NOT_AN_OBJECT = "the frame must be a JSON object {event, data, ref}";
    private static final String BAD_REF = "ref must be a string of at most 64 characters";
    private static final String BAD_EVENT = "event must be a string";
    private static final String BAD_CONFIGURATOR_ID = "configuratorId must be a positive integer below 2^53";
    private static final String BAD_ITEM_ID = "itemId must be a positive integer below 2^53";
    private static final String BAD_PAGE = "page must be one of filters, dependencies, attributes";
    private static final String BAD_RESUME_TOKEN = "resumeToken must be the string from welcome";
    private static final String BAD_ACCESS_TOKEN = "accessToken must be a JWT (a non-empty string)";

    private final FrameDecoder decoder = new FrameDecoder(StrictJson.mapper());

    static Stream<Arguments> validFrames() {
        return Stream.of(
                row(
                        "lock-configurator",
                        "{'event':'lock-configurator','data':{'configuratorId':12},'ref':'r1'}",
                        new ClientRequest.Lock("r1", Resource.configurator(12))),
                row(
                        "lock-variables",
                        "{'event':'lock-variables','data':{'configuratorId':12},'ref':'r1'}",
                        new ClientRequest.Lock("r1", Resource.variables(12))),
                row(
                        "lock-item-subresource",
                        "{'event':'lock-item-subresource','data':{'itemId':5,'page':'filters'},'ref':'r1'}",
                        new ClientRequest.Lock("r1", Resource.itemPage(5, Page.FILTERS))),
                row(
                        "every page by its wire name",
                        "{'event':'lock-item-subresource','data':{'itemId':5,'page':'dependencies'}}",
                        new ClientRequest.Lock(null, Resource.itemPage(5, Page.DEPENDENCIES))),
                row(
                        "attributes page",
                        "{'event':'lock-item-subresource','data':{'itemId':5,'page':'attributes'}}",
                        new ClientRequest.Lock(null, Resource.itemPage(5, Page.ATTRIBUTES))),
                row(
                        "unlock-configurator",
                        "{'event':'unlock-configurator','data':{'configuratorId':12},'ref':'r1'}",
                        new ClientRequest.Unlock("r1", Resource.configurator(12))),
                row(
                        "unlock-variables",
                        "{'event':'unlock-variables','data':{'configuratorId':12}}",
                        new ClientRequest.Unlock(null, Resource.variables(12))),
                row(
                        "unlock-item-subresource",
                        "{'event':'unlock-item-subresource','data':{'itemId':5,'page':'attributes'}}",
                        new ClientRequest.Unlock(null, Resource.itemPage(5, Page.ATTRIBUTES))),
                row(
                        "watch",
                        "{'event':'watch','data':{'configuratorId':12},'ref':'w'}",
                        new ClientRequest.Watch("w", 12)),
                row(
                        "unwatch",
                        "{'event':'unwatch','data':{'configuratorId':12},'ref':'w'}",
                        new ClientRequest.Unwatch("w", 12)),
                row(
                        "request-takeover with a message of 200 emoji",
                        "{'event':'request-takeover','data':{'resource':{'type':'configurator','configuratorId':12},"
                                + "'message':'" + "😀".repeat(200) + "'},'ref':'t'}",
                        new ClientRequest.RequestTakeover("t", Resource.configurator(12), "😀".repeat(200))),
                row(
                        "answer-takeover naming no asker",
                        "{'event':'answer-takeover','data':{'resource':{'type':'configurator','configuratorId':12},"
                                + "'accept':true},'ref':'a'}",
                        new ClientRequest.AnswerTakeover("a", Resource.configurator(12), true, null)),
                row(
                        "answer-takeover with byUserId null names no asker",
                        "{'event':'answer-takeover','data':{'resource':{'type':'configurator','configuratorId':12},"
                                + "'accept':false,'byUserId':null},'ref':'a'}",
                        new ClientRequest.AnswerTakeover("a", Resource.configurator(12), false, null)),
                row(
                        "answer-takeover naming its asker",
                        "{'event':'answer-takeover','data':{'resource':{'type':'configurator','configuratorId':12},"
                                + "'accept':true,'byUserId':'7'},'ref':'a'}",
                        new ClientRequest.AnswerTakeover("a", Resource.configurator(12), true, "7")),
                // Any id a token's sub may be can be named: no bound of its own (the frame limit bounds it).
                row(
                        "answer-takeover naming an asker of 4,000 emoji",
                        "{'event':'answer-takeover','data':{'resource':{'type':'configurator','configuratorId':12},"
                                + "'accept':true,'byUserId':'" + "😀".repeat(4_000) + "'},'ref':'a'}",
                        new ClientRequest.AnswerTakeover("a", Resource.configurator(12), true, "😀".repeat(4_000))),
                row("touch without data", "{'event':'touch','ref':'t'}", new ClientRequest.Touch("t")),
                row(
                        "a ref of a whole surrogate pair, escaped",
                        "{'event':'touch','ref':'\\ud83d\\ude00'}",
                        new ClientRequest.Touch("😀")),
                row("touch with data null", "{'event':'touch','data':null,'ref':'t'}", new ClientRequest.Touch("t")),
                row(
                        "touch with an object",
                        "{'event':'touch','data':{'anything':1},'ref':'t'}",
                        new ClientRequest.Touch("t")),
                row(
                        "resume",
                        "{'event':'resume','data':{'resumeToken':'abc'},'ref':'r'}",
                        new ClientRequest.Resume("r", "abc")),
                row(
                        "resume token of 256 characters",
                        "{'event':'resume','data':{'resumeToken':'" + "a".repeat(256) + "'}}",
                        new ClientRequest.Resume(null, "a".repeat(256))),
                row(
                        "reauth",
                        "{'event':'reauth','data':{'accessToken':'e.y.j'},'ref':'a'}",
                        new ClientRequest.Reauth("a", "e.y.j")),
                // No length of its own: the frame limit bounds it (an identity provider's token can be long).
                row(
                        "reauth with a token of 12,000 characters",
                        "{'event':'reauth','data':{'accessToken':'" + "a".repeat(12_000) + "'},'ref':'a'}",
                        new ClientRequest.Reauth("a", "a".repeat(12_000))),
                row("no ref", "{'event':'touch'}", new ClientRequest.Touch(null)),
                row("ref null is no ref", "{'event':'touch','ref':null}", new ClientRequest.Touch(null)),
                row("empty ref is a ref", "{'event':'touch','ref':''}", new ClientRequest.Touch("")),
                row(
                        "ref of 64 characters",
                        "{'event':'touch','ref':'" + "r".repeat(64) + "'}",
                        new ClientRequest.Touch("r".repeat(64))),
                // A character is a code point: 😀 is one, though two UTF-16 units.
                row(
                        "ref of 64 emoji",
                        "{'event':'touch','ref':'" + "😀".repeat(64) + "'}",
                        new ClientRequest.Touch("😀".repeat(64))),
                row(
                        "the largest id",
                        "{'event':'watch','data':{'configuratorId':" + MAX_ID + "}}",
                        new ClientRequest.Watch(null, MAX_ID)),
                row(
                        "unknown top-level fields are ignored",
                        "{'event':'touch','ref':'t','extra':[1]}",
                        new ClientRequest.Touch("t")),
                row(
                        "unknown data fields are ignored",
                        "{'event':'watch','data':{'configuratorId':3,'x':true}}",
                        new ClientRequest.Watch(null, 3)),
                // The server resolves an item's configurator itself: a valid one given is not trusted.
                row(
                        "wait-for an item page with its configuratorId",
                        "{'event':'wait-for','data':{'resource':{'type':'item-subresource','configuratorId':12,"
                                + "'itemId':5,'page':'filters'}},'ref':'w'}",
                        new ClientRequest.WaitFor("w", Resource.itemPage(5, Page.FILTERS))),
                row(
                        "stop-waiting for an item page with configuratorId null",
                        "{'event':'stop-waiting','data':{'resource':{'type':'item-subresource','configuratorId':null,"
                                + "'itemId':5,'page':'filters'}},'ref':'w'}",
                        new ClientRequest.StopWaiting("w", Resource.itemPage(5, Page.FILTERS))));
    }

    /**
     * docs/protocol.md §4 and §13: an item page's configuratorId may be left out, but one given is
     * checked as on any other resource, in every request that names a resource.
     */
    static Stream<Arguments> badItemPageConfiguratorIds() {
        Map<String, String> requests = new LinkedHashMap<>();
        requests.put("wait-for", "");
        requests.put("stop-waiting", "");
        requests.put("request-takeover", ",'message':'please'");
        requests.put("answer-takeover", ",'accept':true");
        Map<String, String> values = new LinkedHashMap<>();
        values.put("zero", "0");
        values.put("a string", "'x'");
        values.put("a numeric string", "'12'");
        values.put("negative", "-5");
        values.put("a fraction", "1.5");
        values.put("2^53", String.valueOf(MAX_ID + 1));
        values.put("beyond a long", "99999999999999999999");
        return requests.entrySet().stream()
                .flatMap(request -> values.entrySet().stream()
                        .map(value -> row(
                                request.getKey() + " for an item page with configuratorId " + value.getKey(),
                                "{'event':'" + request.getKey() + "','data':{'resource':{'type':'item-subresource',"
                                        + "'configuratorId':" + value.getValue() + ",'itemId':5,'page':'filters'}"
                                        + request.getValue() + "},'ref':'r'}",
                                invalid("r", "resource." + BAD_CONFIGURATOR_ID))));
    }

    static Stream<Arguments> malformedFrames() {
        return Stream.concat(badItemPageConfiguratorIds(), otherMalformedFrames());
    }

    private static Stream<Arguments> otherMalformedFrames() {
        return Stream.of(
                // Nothing can be trusted: no ref.
                row("not JSON", "hello", invalid(null, NOT_JSON)),
                row("truncated JSON", "{'event':'touch','ref':'r'", invalid(null, NOT_JSON)),
                // What the client's own reading of its JSON may see otherwise: one value, each field once.
                row(
                        "a second value after the frame",
                        "{'event':'touch','ref':'r'} {'event':'touch'}",
                        invalid(null, NOT_JSON)),
                row("trailing text", "{'event':'touch','ref':'r'} x", invalid(null, NOT_JSON)),
                row("a field twice", "{'event':'touch','event':'watch','ref':'r'}", invalid(null, NOT_JSON)),
                row(
                        "a data field twice",
                        "{'event':'lock-configurator','data':{'configuratorId':1,'configuratorId':2},'ref':'r'}",
                        invalid(null, NOT_JSON)),
                // JSON beyond what the tree is built from: still answered with its ref.
                row(
                        "an id of 1001 digits",
                        "{'event':'lock-configurator','ref':'big','data':{'configuratorId':" + "9".repeat(1001) + "}}",
                        invalid("big", FrameDecoder.BEYOND_LIMITS)),
                row(
                        "data nested 1001 deep, the ref after it",
                        "{'event':'touch','data':" + "[".repeat(1001) + "]".repeat(1001) + ",'ref':'deep'}",
                        invalid("deep", FrameDecoder.BEYOND_LIMITS)),
                row(
                        "beyond the limits with a bad ref",
                        "{'event':'touch','ref':7,'data':{'n':" + "1".repeat(1001) + "}}",
                        invalid(null, FrameDecoder.BEYOND_LIMITS)),
                row("empty frame", "", invalid(null, NOT_AN_OBJECT)),
                row("JSON array", "[{'event':'touch','ref':'r'}]", invalid(null, NOT_AN_OBJECT)),
                row("JSON string", "'touch'", invalid(null, NOT_AN_OBJECT)),
                row("JSON number", "42", invalid(null, NOT_AN_OBJECT)),
                row("JSON null", "null", invalid(null, NOT_AN_OBJECT)),
                row("ref a number", "{'event':'touch','ref':7}", invalid(null, BAD_REF)),
                row("ref an object", "{'event':'touch','ref':{'id':'r'}}", invalid(null, BAD_REF)),
                row("ref of 65 characters", "{'event':'touch','ref':'" + "r".repeat(65) + "'}", invalid(null, BAD_REF)),
                row("ref of 65 emoji", "{'event':'touch','ref':'" + "😀".repeat(65) + "'}", invalid(null, BAD_REF)),
                // No reply could carry it back as it came.
                row("ref of half a surrogate pair", "{'event':'touch','ref':'a\\ud800'}", invalid(null, BAD_REF)),
                row("ref of the other half", "{'event':'touch','ref':'\\udc00b'}", invalid(null, BAD_REF)),
                row(
                        "request-takeover with a message of 201 emoji",
                        "{'event':'request-takeover','data':{'resource':{'type':'configurator','configuratorId':12},"
                                + "'message':'" + "😀".repeat(201) + "'},'ref':'t'}",
                        invalid("t", "message must be a Unicode string of at most 200 characters")),
                row(
                        "request-takeover with half a surrogate pair in its message",
                        "{'event':'request-takeover','data':{'resource':{'type':'configurator','configuratorId':12},"
                                + "'message':'a\\ud800'},'ref':'t'}",
                        invalid("t", "message must be a Unicode string of at most 200 characters")),
                badByUserId("a number", "7"),
                badByUserId("an object", "{'id':'7'}"),
                badByUserId("an array", "['7']"),
                badByUserId("a boolean", "true"),
                badByUserId("an empty string", "''"),
                badByUserId("blank", "' \\u00a0'"),
                badByUserId("half a surrogate pair", "'a\\ud800'"),
                badByUserId("the other half of a pair", "'\\udc00b'"),
                // The ref was valid: it is given back.
                row("missing event", "{'data':{'configuratorId':1},'ref':'r'}", invalid("r", BAD_EVENT)),
                row("event null", "{'event':null,'ref':'r'}", invalid("r", BAD_EVENT)),
                row("event a number", "{'event':7,'ref':'r'}", invalid("r", BAD_EVENT)),
                row("wrong-case field name", "{'Event':'touch','ref':'r'}", invalid("r", BAD_EVENT)),
                row(
                        "unknown event",
                        "{'event':'lock-everything','data':{},'ref':'r'}",
                        invalid("r", "unknown event 'lock-everything'")),
                row("wrong-case event", "{'event':'Touch','ref':'r'}", invalid("r", "unknown event 'Touch'")),
                row(
                        "touch with an array",
                        "{'event':'touch','data':[],'ref':'r'}",
                        invalid("r", "data of touch must be an object or absent")),
                row(
                        "missing data",
                        "{'event':'lock-configurator','ref':'r'}",
                        invalid("r", "data of lock-configurator must be an object")),
                row(
                        "data null",
                        "{'event':'watch','data':null,'ref':'r'}",
                        invalid("r", "data of watch must be an object")),
                row(
                        "data a string",
                        "{'event':'lock-variables','data':'12','ref':'r'}",
                        invalid("r", "data of lock-variables must be an object")),
                row(
                        "missing configuratorId",
                        "{'event':'lock-configurator','data':{},'ref':'r'}",
                        invalid("r", "configuratorId is required")),
                row(
                        "configuratorId null",
                        "{'event':'unwatch','data':{'configuratorId':null},'ref':'r'}",
                        invalid("r", "configuratorId is required")),
                row(
                        "wrong-case configuratorId",
                        "{'event':'watch','data':{'ConfiguratorId':1},'ref':'r'}",
                        invalid("r", "configuratorId is required")),
                row(
                        "configuratorId a string",
                        "{'event':'lock-configurator','data':{'configuratorId':'12'},'ref':'r'}",
                        invalid("r", BAD_CONFIGURATOR_ID)),
                row(
                        "configuratorId a fraction",
                        "{'event':'lock-configurator','data':{'configuratorId':1.5},'ref':'r'}",
                        invalid("r", BAD_CONFIGURATOR_ID)),
                row(
                        "configuratorId zero",
                        "{'event':'lock-variables','data':{'configuratorId':0},'ref':'r'}",
                        invalid("r", BAD_CONFIGURATOR_ID)),
                row(
                        "configuratorId negative",
                        "{'event':'watch','data':{'configuratorId':-1},'ref':'r'}",
                        invalid("r", BAD_CONFIGURATOR_ID)),
                row(
                        "configuratorId 2^53",
                        "{'event':'watch','data':{'configuratorId':" + (MAX_ID + 1) + "},'ref':'r'}",
                        invalid("r", BAD_CONFIGURATOR_ID)),
                row(
                        "configuratorId beyond a long",
                        "{'event':'watch','data':{'configuratorId':99999999999999999999},'ref':'r'}",
                        invalid("r", BAD_CONFIGURATOR_ID)),
                row(
                        "missing itemId",
                        "{'event':'lock-item-subresource','data':{'page':'filters'},'ref':'r'}",
                        invalid("r", "itemId is required")),
                row(
                        "itemId zero",
                        "{'event':'unlock-item-subresource','data':{'itemId':0,'page':'filters'},'ref':'r'}",
                        invalid("r", BAD_ITEM_ID)),
                row(
                        "missing page",
                        "{'event':'lock-item-subresource','data':{'itemId':5},'ref':'r'}",
                        invalid("r", BAD_PAGE)),
                row(
                        "page a number",
                        "{'event':'lock-item-subresource','data':{'itemId':5,'page':1},'ref':'r'}",
                        invalid("r", BAD_PAGE)),
                row(
                        "unknown page",
                        "{'event':'lock-item-subresource','data':{'itemId':5,'page':'notes'},'ref':'r'}",
                        invalid("r", "unknown page 'notes': filters, dependencies or attributes")),
                row(
                        "wrong-case page",
                        "{'event':'lock-item-subresource','data':{'itemId':5,'page':'Filters'},'ref':'r'}",
                        invalid("r", "unknown page 'Filters': filters, dependencies or attributes")),
                row("missing resumeToken", "{'event':'resume','data':{},'ref':'r'}", invalid("r", BAD_RESUME_TOKEN)),
                row(
                        "empty resumeToken",
                        "{'event':'resume','data':{'resumeToken':''},'ref':'r'}",
                        invalid("r", BAD_RESUME_TOKEN)),
                row(
                        "resumeToken a number",
                        "{'event':'resume','data':{'resumeToken':5},'ref':'r'}",
                        invalid("r", BAD_RESUME_TOKEN)),
                row(
                        "resumeToken of 257 characters",
                        "{'event':'resume','data':{'resumeToken':'" + "a".repeat(257) + "'},'ref':'r'}",
                        invalid("r", BAD_RESUME_TOKEN)),
                row("missing accessToken", "{'event':'reauth','data':{},'ref':'r'}", invalid("r", BAD_ACCESS_TOKEN)),
                row(
                        "blank accessToken",
                        "{'event':'reauth','data':{'accessToken':'  '},'ref':'r'}",
                        invalid("r", BAD_ACCESS_TOKEN)),
                row(
                        "accessToken an object",
                        "{'event':'reauth','data':{'accessToken':{}},'ref':'r'}",
                        invalid("r", BAD_ACCESS_TOKEN)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validFrames")
    void aValidFrameIsDecodedToItsRequest(String name, String frame, ClientRequest expected) {
        assertEquals(expected, decoder.decode(frame), name + ": " + frame);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedFrames")
    void aMalformedFrameIsInvalidWithItsReasonAndOnlyAValidRef(
            String name, String frame, ClientRequest.Invalid expected) {
        ClientRequest decoded = decoder.decode(frame);
        assertEquals(expected, decoded, name + " must be refused with this message and ref: " + frame);
    }

    private static Arguments row(String name, String frame, ClientRequest expected) {
        return Arguments.of(name, json(frame), expected);
    }

    /** docs/protocol.md §13: a byUserId that is no user id is a bad frame, never read as naming no asker. */
    private static Arguments badByUserId(String name, String value) {
        return row(
                "answer-takeover with byUserId " + name,
                "{'event':'answer-takeover','data':{'resource':{'type':'configurator','configuratorId':12},"
                        + "'accept':true,'byUserId':" + value + "},'ref':'a'}",
                invalid("a", "byUserId must be a user id: a non-blank string of Unicode text"));
    }

    private static ClientRequest.Invalid invalid(String ref, String message) {
        return new ClientRequest.Invalid(ref, message);
    }

    /** No frame in these tables contains an apostrophe of its own. */
    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }
}
