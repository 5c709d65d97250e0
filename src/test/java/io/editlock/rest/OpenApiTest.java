package io.editlock.rest;

import static io.editlock.support.Api.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.catalog.Entity;
import io.editlock.catalog.EntryField;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.RedisIndependentSecondPass;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/protocol.md §9: /q/openapi documents every route of §8, the guarded ones with 423, 412 and 503, the
 * Lock-Token header, the rate-limited writes with 429 (§8), and the bodies as the types the server answers,
 * with the fields each requires and their limits.
 */
@QuarkusTest
@RedisIndependentSecondPass
class OpenApiTest {

    @TestHTTPResource("/")
    URI base;

    private static final List<String> GUARDED = List.of(
            "patch /api/configurators/{id}",
            "delete /api/configurators/{id}",
            "post /api/configurators/{id}/items",
            "post /api/configurators/{id}/variables",
            "patch /api/items/{id}",
            "delete /api/items/{id}",
            "post /api/items/{id}/filters",
            "post /api/items/{id}/dependencies",
            "post /api/items/{id}/attribute-values",
            "patch /api/filters/{id}",
            "delete /api/filters/{id}",
            "patch /api/dependencies/{id}",
            "delete /api/dependencies/{id}",
            "patch /api/attribute-values/{id}",
            "delete /api/attribute-values/{id}",
            "patch /api/variables/{id}",
            "delete /api/variables/{id}");

    @Test
    void everyGuardedRouteDocumentsItsRefusals() {
        JsonPath doc = given().queryParam("format", "json")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        for (String route : GUARDED) {
            String[] parts = route.split(" ");
            Map<String, Object> responses = doc.getMap("paths.'" + parts[1] + "'." + parts[0] + ".responses");
            assertTrue(responses != null, route + " is not documented");
            for (String status : List.of("400", "401", "404", "412", "423", "503")) {
                assertTrue(
                        responses.containsKey(status),
                        route + " does not document " + status + ": " + responses.keySet());
            }
            assertTrue(
                    doc.getString("paths.'" + parts[1] + "'." + parts[0] + ".summary") != null,
                    route + " has no summary");
        }
        assertTrue(doc.getMap("paths.'/api/locks/{canonical}'.delete.responses").containsKey("403"));
        assertTrue(doc.getMap("paths.'/api/configurators'.post.responses").containsKey("201"));
        assertTrue(doc.getMap("paths.'/api/configurators/{id}/locks'.get.responses")
                .containsKey("404"));
        assertTrue(doc.getMap("components.responses").containsKey("Locked"));
    }

    /** The body of each write, by the schema of the type it is (the server answers the same type). */
    private static final Map<String, String> BODIES = Map.ofEntries(
            Map.entry("post /api/configurators", "Configurator"),
            Map.entry("patch /api/configurators/{id}", "Configurator"),
            Map.entry("post /api/configurators/{id}/items", "Item"),
            Map.entry("post /api/configurators/{id}/variables", "Variable"),
            Map.entry("post /api/items/{id}/filters", "Filter"),
            Map.entry("post /api/items/{id}/dependencies", "Dependency"),
            Map.entry("post /api/items/{id}/attribute-values", "AttributeValue"));

    /** The change of each entry, by the schema of the entry the route answers. */
    private static final Map<String, String> ENTRY_CHANGES = Map.of(
            "patch /api/filters/{id}", "Filter",
            "patch /api/dependencies/{id}", "Dependency",
            "patch /api/attribute-values/{id}", "AttributeValue",
            "patch /api/variables/{id}", "Variable");

    @Test
    void theDocumentedGuardedRoutesAreTheDeclaredOnes() {
        Set<String> declared = WriteDocs.guardedRoutes(GuardDeclarationTest.resources()).keySet().stream()
                .map(route -> route.toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(GUARDED), declared, "the routes with @RequireLock are the guarded routes of §8");
    }

    @Test
    void everyGuardedWriteDocumentsTheLockTokenHeaderAndItsRefusals() {
        JsonPath doc = openApi();
        Map<String, String> refusals =
                Map.of("400", "BadRequest", "404", "NotFound", "423", "Locked", "412", "PreconditionFailed");
        for (String route : GUARDED) {
            String at = at(route);
            List<Map<String, Object>> parameters = doc.getList(at + ".parameters");
            assertTrue(
                    parameters.stream()
                            .anyMatch(parameter -> "Lock-Token".equals(parameter.get("name"))
                                    && "header".equals(parameter.get("in"))
                                    && parameter.get("description") != null),
                    route + " does not document the Lock-Token header: " + parameters);
            refusals.forEach((status, response) -> assertEquals(
                    "#/components/responses/" + response,
                    doc.getMap(at + ".responses.'" + status + "'").get("$ref"),
                    route + " answers " + status + " with " + response));
        }
    }

    /** A write no lock guards does not check the token, but a malformed one is still 400 (§7). */
    @ParameterizedTest
    @ValueSource(strings = {"post /api/configurators", "delete /api/locks/{canonical}"})
    void anUnguardedWriteSaysItsLockTokenIsNotCheckedButParsed(String route) {
        JsonPath doc = openApi();
        String at = at(route);
        List<Map<String, Object>> parameters = doc.getList(at + ".parameters");
        Map<String, Object> lockToken = parameters.stream()
                .filter(parameter -> "Lock-Token".equals(parameter.get("name")))
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError(route + " does not document the Lock-Token header: " + parameters));
        assertEquals("header", lockToken.get("in"));
        assertTrue(String.valueOf(lockToken.get("description")).startsWith("Not checked"), lockToken.toString());
        assertEquals(
                "#/components/responses/BadRequest",
                doc.getMap(at + ".responses.'400'").get("$ref"));
        assertNull(doc.getMap(at + ".responses.'412'"), route + " never answers 412");
    }

    /** Every write the rate limit counts: the guarded ones, the create of a configurator, the admin's break-lock. */
    private static final Set<String> LIMITED = Stream.concat(
                    GUARDED.stream(), Stream.of("post /api/configurators", "delete /api/locks/{canonical}"))
            .collect(Collectors.toCollection(TreeSet::new));

    @Test
    void theWritesTheRateLimitCountsAreTheUsersWrites() {
        Set<String> counted = WriteDocs.limitedRoutes(GuardDeclarationTest.resources()).stream()
                .map(route -> route.toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(LIMITED, counted, "every write with a token counts against the rate, the demo login does not");
    }

    @Test
    void exactlyTheWritesTheRateLimitCountsDocument429WithRetryAfter() {
        JsonPath doc = openApi();
        Set<String> documented = new TreeSet<>();
        Map<String, Map<String, Object>> paths = doc.getMap("paths");
        paths.forEach((path, item) -> item.forEach((method, operation) -> {
            if (operation instanceof Map<?, ?> fields
                    && fields.get("responses") instanceof Map<?, ?> responses
                    && responses.containsKey("429")) {
                documented.add(method + " " + path);
            }
        }));
        assertEquals(LIMITED, documented, "429 is documented where RestWriteLimitFilter answers it, and only there");
        for (String route : LIMITED) {
            assertEquals(
                    "#/components/responses/TooManyRequests",
                    doc.getMap(at(route) + ".responses.'429'").get("$ref"),
                    route);
        }
        String tooMany = "components.responses.TooManyRequests";
        assertEquals(
                "integer",
                doc.getString(tooMany + ".headers.'Retry-After'.schema.type"),
                "a 429 says how many seconds to wait");
        assertEquals(
                "#/components/schemas/Message",
                doc.getMap(tooMany + ".content.'application/json'.schema").get("$ref"),
                "a 429's body is the JSON message of every error");
    }

    @Test
    void everyCreateDocumentsItsIdempotencyKey() {
        JsonPath doc = openApi();
        for (String route : List.of(
                "post /api/configurators",
                "post /api/configurators/{id}/items",
                "post /api/configurators/{id}/variables",
                "post /api/items/{id}/filters",
                "post /api/items/{id}/dependencies",
                "post /api/items/{id}/attribute-values")) {
            List<Map<String, Object>> parameters = doc.getList(at(route) + ".parameters");
            assertTrue(
                    parameters.stream()
                            .anyMatch(parameter -> "Idempotency-Key".equals(parameter.get("name"))
                                    && "header".equals(parameter.get("in"))
                                    && parameter.get("description") != null),
                    route + " does not document the Idempotency-Key header: " + parameters);
            assertEquals(
                    "#/components/responses/IdempotencyKeyInProgress",
                    doc.getMap(at(route) + ".responses.'409'").get("$ref"),
                    route);
            assertEquals(
                    "#/components/responses/IdempotencyKeyReused",
                    doc.getMap(at(route) + ".responses.'422'").get("$ref"),
                    route);
        }
    }

    @Test
    void bodiesAreDocumentedAsTheRealTypes() {
        JsonPath doc = openApi();
        BODIES.forEach((route, type) -> {
            String at = at(route);
            String answer = route.startsWith("post") ? "201" : "200";
            // The type's fields, requiring the writable ones only (OpenAPI 3.1 holds a body to every required
            // field, read-only or not): the copy WriteDocs makes of the type.
            assertEquals(
                    "#/components/schemas/" + type + "Input",
                    doc.getMap(at + ".requestBody.content.'application/json'.schema")
                            .get("$ref"),
                    route + " takes the fields of a " + type);
            String input = "components.schemas." + type + "Input";
            assertEquals(
                    doc.getMap("components.schemas." + type + ".properties"),
                    doc.getMap(input + ".properties"),
                    route + " takes the fields of a " + type + ", documented as the " + type + " documents them");
            assertEquals(
                    doc.getList("components.schemas." + type + ".required").stream()
                            .filter(field -> !Bodies.READ_ONLY.contains(field))
                            .toList(),
                    doc.getList(input + ".required"),
                    route + " requires the writable fields a " + type + " requires");
            assertEquals(
                    "#/components/schemas/" + type,
                    doc.getMap(at + ".responses.'" + answer + "'.content.'application/json'.schema")
                            .get("$ref"),
                    route + " answers the type it takes");
            Map<String, Map<String, Object>> properties = doc.getMap("components.schemas." + type + ".properties");
            properties.forEach((name, property) -> assertEquals(
                    Bodies.READ_ONLY.contains(name),
                    Boolean.TRUE.equals(property.get("readOnly")),
                    type + "." + name + " is read-only exactly when a body may not set it"));
        });
        Map<String, Map<String, Object>> rename =
                doc.getMap(at("patch /api/items/{id}") + ".requestBody.content.'application/json'.schema.properties");
        assertEquals(
                Set.of("name", "parentItemId"),
                rename.keySet(),
                "renaming an item takes its name only, and its parent sent back (the item's answer)");
        assertEquals(true, rename.get("parentItemId").get("readOnly"), "an item does not move");
        assertEquals(
                List.of("integer", "null"),
                rename.get("parentItemId").get("type"),
                "a top-level item's answer, parentItemId null, can be sent back");
        assertTrue(
                doc.getMap("components.schemas").keySet().stream()
                        .noneMatch(name -> name.toString().endsWith("Body")),
                "no documentation-only copies of bodies: "
                        + doc.getMap("components.schemas").keySet());
    }

    /**
     * A change names the fields it changes (docs/rest-api.md): none is required, though the entry it answers
     * requires them all, and each is documented as the entry documents it.
     */
    @Test
    void anEntrysChangeRequiresNoneOfItsFields() {
        JsonPath doc = openApi();
        ENTRY_CHANGES.forEach((route, type) -> {
            String at = at(route);
            assertEquals(
                    "#/components/schemas/" + type + "Change",
                    doc.getMap(at + ".requestBody.content.'application/json'.schema")
                            .get("$ref"),
                    route + " takes a change of a " + type);
            assertEquals(
                    "#/components/schemas/" + type,
                    doc.getMap(at + ".responses.'200'.content.'application/json'.schema")
                            .get("$ref"),
                    route + " answers the whole " + type);
            String change = "components.schemas." + type + "Change";
            assertNull(doc.get(change + ".required"), route + " requires no field");
            assertFalse(
                    doc.getList("components.schemas." + type + ".required").isEmpty(), type + " requires its fields");
            assertEquals(
                    doc.getMap("components.schemas." + type + ".properties"),
                    doc.getMap(change + ".properties"),
                    route + " takes the fields of a " + type + ", with their limits");
        });
    }

    /**
     * What a body must hold (docs/rest-api.md, "Field rules"): the fields the server answers 400 "… is
     * required" without. The read-only ones are required too, as every answer holds them; OpenAPI holds a
     * read-only field's {@code required} to answers only.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "post /api/configurators, name",
        "patch /api/configurators/{id}, name",
        "post /api/configurators/{id}/items, name",
        "post /api/configurators/{id}/variables, name formula",
        "post /api/items/{id}/filters, expression",
        "post /api/items/{id}/dependencies, targetItemId effect",
        "post /api/items/{id}/attribute-values, name value",
        "post /api/auth/demo-login, userId name"
    })
    void aBodyRequiresWhatTheServerRequires(String route, String fields) {
        JsonPath doc = openApi();
        String ref = String.valueOf(doc.getMap(at(route) + ".requestBody.content.'application/json'.schema")
                .get("$ref"));
        String schema = "components.schemas." + ref.substring(ref.lastIndexOf('/') + 1);
        Map<String, Map<String, Object>> properties = doc.getMap(schema + ".properties");
        List<String> required = doc.getList(schema + ".required");
        assertTrue(required != null, route + " requires " + fields);
        assertTrue(properties.keySet().containsAll(required), schema + " requires only its own fields: " + required);
        Set<String> writable = required.stream()
                .filter(field -> !Boolean.TRUE.equals(properties.get(field).get("readOnly")))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of(fields.split(" "))), writable, route);
    }

    /**
     * The smallest body docs/rest-api.md documents for each create (and the configurator's rename) is valid
     * against the schema the served document gives its request body: what a client generated from the
     * document, or a validator in front of the server, would send or let through.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "post /api/configurators                | {\"name\":\"Main\"}",
                "patch /api/configurators/{id}          | {\"name\":\"Renamed\"}",
                "post /api/configurators/{id}/items     | {\"name\":\"Frame\"}",
                "post /api/configurators/{id}/items     | {\"name\":\"Fork\",\"parentItemId\":5}",
                "post /api/configurators/{id}/variables | {\"name\":\"total\",\"formula\":\"a + b\"}",
                "post /api/items/{id}/filters           | {\"expression\":\"size > 26\"}",
                "post /api/items/{id}/dependencies      | {\"targetItemId\":5,\"effect\":\"hide\"}",
                "post /api/items/{id}/attribute-values  | {\"name\":\"weight\",\"value\":\"\"}"
            })
    void theSmallestDocumentedBodyIsValidAgainstItsRequestSchema(String route, String body) {
        JsonPath doc = openApi();
        Map<String, Object> schema =
                resolved(doc, doc.getMap(at(route) + ".requestBody.content.'application/json'.schema"));
        Map<String, Object> sent = JsonPath.from(body).getMap("");
        List<String> problems = new ArrayList<>();
        @SuppressWarnings("unchecked")
        List<String> required = (List<String>) schema.getOrDefault("required", List.of());
        required.stream()
                .filter(field -> !sent.containsKey(field))
                .forEach(field -> problems.add("required " + field + " is missing"));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> properties = (Map<String, Map<String, Object>>) schema.get("properties");
        sent.forEach((field, value) -> {
            Map<String, Object> property = properties.get(field);
            if (property == null) {
                problems.add(field + " is no documented field");
                return;
            }
            Object type = property.get("type");
            List<?> types = type instanceof List<?> list ? list : List.of(type);
            String actual = value == null ? "null" : value instanceof String ? "string" : "integer";
            if (!types.contains(actual)) {
                problems.add(field + " is " + actual + ", documented " + types);
            }
            if (value instanceof String text) {
                if (property.get("minLength") instanceof Integer min && text.length() < min) {
                    problems.add(field + " is shorter than " + min);
                }
                if (property.get("maxLength") instanceof Integer max && text.length() > max) {
                    problems.add(field + " is longer than " + max);
                }
            }
        });
        assertEquals(List.of(), problems, route + " " + body + " against " + schema);
    }

    /** A schema with its {@code $ref} followed into the document's components. */
    private static Map<String, Object> resolved(JsonPath doc, Map<String, Object> schema) {
        Object ref = schema.get("$ref");
        if (ref == null) {
            return schema;
        }
        String name = ref.toString().substring(ref.toString().lastIndexOf('/') + 1);
        return resolved(doc, doc.getMap("components.schemas." + name));
    }

    /** Every field an answer always holds is required there; a field that may be absent is not. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "Configurator, id name createdAt createdBy",
        "ConfiguratorTree, id name createdAt createdBy items variables",
        "Node, id name parentItemId filters dependencies attributeValues children",
        "Item, id configuratorId name",
        "Filter, id configuratorId itemId expression",
        "Dependency, id configuratorId itemId targetItemId effect",
        "AttributeValue, id configuratorId itemId name value",
        "Variable, id configuratorId name formula",
        "LockView, resource ownerUserId ownerUserName acquiredAt expiresAt",
        "Locked, message lockedBy lockedByUserId resource expiresAt",
        "ResourceView, type",
        "Message, message"
    })
    void anAnswerRequiresTheFieldsItAlwaysHolds(String type, String fields) {
        List<String> required = openApi().getList("components.schemas." + type + ".required");
        assertEquals(
                new TreeSet<>(List.of(fields.split(" "))), required == null ? Set.of() : new TreeSet<>(required), type);
    }

    /**
     * The locks answer holds exactly the fields its schema documents, for a lock of each shape: a new
     * field of a lock reaches this answer through {@code WireFormat} by itself, its documentation does not.
     */
    @Test
    void aLockIsAnsweredWithTheFieldsItsSchemaDocuments() {
        TestUser sara = DemoLogin.user("Sara");
        long c = Api.configurator(sara);
        long item = Api.item(sara, c, null);
        try (WsClient s = WsClient.connect(base, sara.token())) {
            s.request("lock-variables", Map.of("configuratorId", c));
            s.request("lock-item-subresource", Map.of("itemId", item, "page", "filters"));
            JsonPath doc = openApi();
            Map<String, Object> lockSchema = doc.getMap("components.schemas.LockView.properties");
            Map<String, Object> resourceSchema = doc.getMap("components.schemas.ResourceView.properties");
            Set<String> lockFields = new TreeSet<>(lockSchema.keySet());
            Set<String> resourceFields = resourceSchema.keySet();
            List<Map<String, Object>> locks = as(sara).get("/api/configurators/" + c + "/locks")
                    .jsonPath()
                    .getList("$");
            assertEquals(2, locks.size(), "the locks answer: " + locks);
            for (Map<String, Object> lock : locks) {
                assertEquals(lockFields, new TreeSet<>(lock.keySet()), "LockView documents a lock's fields");
                Map<?, ?> resource = (Map<?, ?>) lock.get("resource");
                assertTrue(
                        resourceFields.containsAll(resource.keySet()),
                        "ResourceView documents every field of " + resource + ": " + resourceFields);
            }
        }
    }

    /** An entry's fields are documented as Bodies checks them: each by its type, all of them required at creation. */
    @ParameterizedTest
    @EnumSource(
            value = Entity.class,
            names = {"FILTER", "DEPENDENCY", "ATTRIBUTE_VALUE", "VARIABLE"})
    void anEntrysFieldsDocumentTheirLimits(Entity entity) {
        JsonPath doc = openApi();
        String type = Stream.of(entity.wireName().split("-"))
                .map(word -> Character.toUpperCase(word.charAt(0)) + word.substring(1))
                .collect(Collectors.joining());
        String schema = "components.schemas." + type;
        List<String> required = doc.getList(schema + ".required");
        for (EntryField field : entity.fields()) {
            String property = schema + ".properties." + field.name();
            assertTrue(required != null && required.contains(field.name()), property + " is required");
            switch (field.type()) {
                case NAME -> assertLength(doc, property, 1, EntryField.MAX_NAME);
                case TEXT -> assertLength(doc, property, 1, EntryField.MAX_TEXT);
                case VALUE -> assertLength(doc, property, null, EntryField.MAX_TEXT);
                case ITEM_ID -> assertEquals("integer", doc.getString(property + ".type"), property);
            }
        }
    }

    /** A name that is not an entry's: at least one character and at most 200 (the demo login's: 128). */
    @ParameterizedTest(name = "{0}.{1}")
    @CsvSource({
        "Configurator, name, 200",
        "Item, name, 200",
        "DemoLoginRequest, userId, 128",
        "DemoLoginRequest, name, 128"
    })
    void aNameDocumentsItsLength(String type, String field, int max) {
        assertLength(openApi(), "components.schemas." + type + ".properties." + field, 1, max);
    }

    private static void assertLength(JsonPath doc, String property, Integer min, int max) {
        assertEquals("string", doc.getString(property + ".type"), property);
        assertEquals(min, doc.get(property + ".minLength"), property + " is at least that long");
        assertEquals(max, (Integer) doc.get(property + ".maxLength"), property + " is at most that long");
    }

    @Test
    void theDemoLoginAnswersItsToken() {
        JsonPath doc = openApi();
        String answer = at("post /api/auth/demo-login") + ".responses.'200'.content.'application/json'.schema";
        assertEquals(List.of("token"), doc.getList(answer + ".required"), "the answer is {token}");
        assertEquals("string", doc.getString(answer + ".properties.token.type"));
    }

    /** Every error answers JSON {message}, the refusals a route declares by itself too. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"delete /api/locks/{canonical}, 404", "delete /api/configurators/{id}, 403"})
    void aRoutesOwnRefusalAnswersTheMessage(String route, String status) {
        assertEquals(
                "#/components/schemas/Message",
                openApi()
                        .getMap(at(route) + ".responses.'" + status + "'.content.'application/json'.schema")
                        .get("$ref"),
                route + " answers " + status + " with {message}");
    }

    /**
     * Only a lock's delete (admin) and a configurator's delete (its creator or an admin) can answer 403
     * (docs/rest-api.md): no other route documents one, and those two say why, with {message}.
     */
    @Test
    void onlyTheRoutesThatCanRefuseARoleDocument403() {
        JsonPath doc = openApi();
        Set<String> documented = new TreeSet<>();
        Map<String, Map<String, Object>> paths = doc.getMap("paths");
        paths.forEach((path, item) -> item.keySet().forEach(method -> {
            Map<String, Object> responses = doc.getMap("paths.'" + path + "'." + method + ".responses");
            if (responses != null && responses.containsKey("403")) {
                documented.add(method + " " + path);
            }
        }));
        assertEquals(Set.of("delete /api/locks/{canonical}", "delete /api/configurators/{id}"), documented);
        assertEquals(
                "#/components/schemas/Message",
                doc.getString("components.responses.Forbidden.content.'application/json'.schema.$ref"));
    }

    /** The server writes a lock's times as ISO-8601 instants. */
    @ParameterizedTest(name = "{0}.{1}")
    @CsvSource({"LockView, acquiredAt", "LockView, expiresAt", "Locked, expiresAt"})
    void aLocksTimesAreDateTimes(String type, String field) {
        JsonPath doc = openApi();
        String property = "components.schemas." + type + ".properties." + field;
        assertEquals("string", doc.getString(property + ".type"), property);
        assertEquals("date-time", doc.getString(property + ".format"), property);
    }

    /** A field the server sends as null is documented so: a strict client generated from the document reads it. */
    @ParameterizedTest(name = "{0}.{1}")
    @CsvSource({
        "Item, parentItemId, integer",
        "Configurator, createdBy, string",
        "Node, parentItemId, integer",
        "ConfiguratorTree, createdBy, string"
    })
    void aFieldThatMayBeNullSaysSo(String type, String field, String itsType) {
        Object declared = openApi().get("components.schemas." + type + ".properties." + field + ".type");
        assertEquals(List.of(itsType, "null"), declared, type + "." + field + " is " + itsType + " or null");
    }

    /**
     * What OpenAPI requires and strict validators check: every header, parameter or response header, has a
     * schema (or content). And what the server sends is there: Retry-After with 503 and 409, 413 on every
     * route that reads a body.
     */
    @Test
    @SuppressWarnings("unchecked")
    void everyHeaderHasASchemaAndEveryRefusalItsHeaders() {
        JsonPath doc = openApi();
        Map<String, Map<String, Object>> paths = doc.getMap("paths");
        List<String> untyped = new ArrayList<>();
        List<String> withoutTooLarge = new ArrayList<>();
        paths.forEach((path, item) -> item.forEach((method, value) -> {
            if (!(value instanceof Map<?, ?> operation)) {
                return;
            }
            String route = method + " " + path;
            List<Map<String, Object>> parameters = (List<Map<String, Object>>) operation.get("parameters");
            if (parameters != null) {
                parameters.stream()
                        .filter(parameter -> !parameter.containsKey("schema") && !parameter.containsKey("content"))
                        .forEach(parameter -> untyped.add(route + " parameter " + parameter.get("name")));
            }
            Map<String, Map<String, Object>> responses = (Map<String, Map<String, Object>>) operation.get("responses");
            responses.forEach((status, response) -> {
                Map<String, Map<String, Object>> headers = (Map<String, Map<String, Object>>) response.get("headers");
                if (headers != null) {
                    headers.forEach((name, header) -> {
                        if (!header.containsKey("schema")
                                && !header.containsKey("content")
                                && !header.containsKey("$ref")) {
                            untyped.add(route + " " + status + " header " + name);
                        }
                    });
                }
            });
            if (operation.containsKey("requestBody") && !responses.containsKey("413")) {
                withoutTooLarge.add(route);
            }
        }));
        assertEquals(List.of(), untyped, "headers without a schema");
        assertEquals(List.of(), withoutTooLarge, "routes that read a body without their 413");
        for (String response : List.of("Unavailable", "IdempotencyKeyInProgress")) {
            assertEquals(
                    "integer",
                    doc.getString("components.responses." + response + ".headers.'Retry-After'.schema.type"),
                    response + " says how long to wait");
        }
    }

    /**
     * docs/rest-api.md, Errors: the refusals Quarkus makes before a route runs are documented where it makes
     * them, with the JSON message the server sends: 415 on every route that reads JSON (a {@code @Consumes},
     * reads and deletes included: the framework checks the Content-Type whatever the method), 406 on every
     * route that answers JSON; 405 among the components, with its Allow header.
     */
    @Test
    void theFrameworksOwnRefusalsAreDocumented() {
        JsonPath doc = openApi();
        Set<String> with415 = new TreeSet<>();
        Set<String> with406 = new TreeSet<>();
        Set<String> operations = new TreeSet<>();
        Map<String, Map<String, Object>> paths = doc.getMap("paths");
        paths.forEach((path, item) -> item.keySet().forEach(method -> {
            String route = method + " " + path;
            operations.add(route);
            Map<String, Map<String, Object>> responses = doc.getMap(at(route) + ".responses");
            if (responses.containsKey("415")) {
                assertEquals(
                        "#/components/responses/UnsupportedMediaType",
                        responses.get("415").get("$ref"),
                        route);
                with415.add(route);
            }
            if (responses.containsKey("406")) {
                assertEquals(
                        "#/components/responses/NotAcceptable",
                        responses.get("406").get("$ref"),
                        route);
                with406.add(route);
            }
        }));
        Set<String> allButTheLockBreak = new TreeSet<>(operations);
        allButTheLockBreak.remove("delete /api/locks/{canonical}");
        assertEquals(allButTheLockBreak, with415, "every route but the lock break declares @Consumes JSON");
        assertEquals(operations, with406, "every route answers JSON only");
        for (String response : List.of("UnsupportedMediaType", "NotAcceptable", "MethodNotAllowed")) {
            assertEquals(
                    "#/components/schemas/Message",
                    doc.getString("components.responses." + response + ".content.'application/json'.schema.$ref"),
                    response + " has the JSON message the server sends");
        }
        assertEquals("string", doc.getString("components.responses.MethodNotAllowed.headers.Allow.schema.type"));
        assertTrue(doc.getString("info.description").contains("405"), "the description names the 405");
    }

    /**
     * What the document says of 415 and 406 is what the server answers: for every documented operation, a
     * body that is not JSON and an Accept without JSON get the documented refusal, with its JSON message.
     */
    @Test
    void everyDocumented415And406IsWhatTheServerAnswers() {
        JsonPath doc = openApi();
        Map<String, Map<String, Object>> paths = doc.getMap("paths");
        List<String> wrong = new ArrayList<>();
        paths.forEach((path, item) -> item.keySet().forEach(method -> {
            String route = method + " " + path;
            // An admin, so that the lock break gets past its role check; one per route, within the write rate.
            String admin = DemoLogin.token("oas-" + route.hashCode(), "Ada", "admin");
            Map<String, Object> responses = doc.getMap(at(route) + ".responses");
            String concrete = path.replace("{id}", "999999999").replace("{canonical}", "configurator:999999999");
            var notJson = given().auth()
                    .oauth2(admin)
                    .contentType("text/plain")
                    .body("x")
                    .request(method.toUpperCase(Locale.ROOT), concrete);
            var noJsonAccepted = given().auth()
                    .oauth2(admin)
                    .contentType("application/json")
                    .accept("text/html")
                    .body("{}")
                    .request(method.toUpperCase(Locale.ROOT), concrete);
            for (var answer : List.of(notJson, noJsonAccepted)) {
                String status = String.valueOf(answer.statusCode());
                if (!responses.containsKey(status)) {
                    wrong.add(route + " answered undocumented " + status + ": " + answer.asString());
                } else if (answer.jsonPath().getString("message") == null) {
                    wrong.add(route + " answered " + status + " without a JSON message: " + answer.asString());
                }
            }
            if (responses.containsKey("415") && notJson.statusCode() != 415) {
                wrong.add(route + " documents 415, answered " + notJson.statusCode());
            }
            if (responses.containsKey("406") && noJsonAccepted.statusCode() != 406) {
                wrong.add(route + " documents 406, answered " + noJsonAccepted.statusCode());
            }
        }));
        assertEquals(List.of(), wrong);
    }

    /**
     * The demo login documents the Lock-Token header as every unguarded write does: not checked, but a
     * malformed one refused with 400, as the server does (docs/protocol.md §7).
     */
    @Test
    void theDemoLoginsLockTokenIsDocumentedAsTheServerReadsIt() {
        JsonPath doc = openApi();
        String at = at("post /api/auth/demo-login");
        List<Map<String, Object>> parameters = doc.getList(at + ".parameters");
        assertTrue(
                parameters.stream()
                        .anyMatch(parameter -> "Lock-Token".equals(parameter.get("name"))
                                && WriteDocs.UNCHECKED_LOCK_TOKEN.equals(parameter.get("description"))),
                "the demo login documents its Lock-Token as not checked but parsed: " + parameters);
        assertEquals(
                "#/components/responses/BadRequest",
                doc.getMap(at + ".responses.'400'").get("$ref"));
        Map<String, String> body = Map.of("userId", "oas-login", "name", "Lin");
        given().contentType("application/json")
                .header("Lock-Token", "abc")
                .body(body)
                .post("/api/auth/demo-login")
                .then()
                .statusCode(400)
                .body("message", startsWith("Lock-Token must be a positive integer"));
        given().contentType("application/json")
                .header("Lock-Token", "17")
                .body(body)
                .post("/api/auth/demo-login")
                .then()
                .statusCode(200);
    }

    private static JsonPath openApi() {
        return given().queryParam("format", "json")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    /** "patch /api/items/{id}" as a path into the document. */
    private static String at(String route) {
        String[] parts = route.split(" ");
        return "paths.'" + parts[1] + "'." + parts[0];
    }

    @Test
    void theDescriptionCitesTheProjectsOwnContract() {
        String doc = given().queryParam("format", "json")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertTrue(doc.contains("docs/protocol.md"), "the Swagger page points readers at docs/protocol.md");
        assertFalse(doc.contains("PROTOCOL"), "no reference to a PROTOCOL document readers cannot find");
    }
}
