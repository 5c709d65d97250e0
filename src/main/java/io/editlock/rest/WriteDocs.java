package io.editlock.rest;

import io.editlock.lock.GuardType;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

/**
 * Documents what the writes answer alike (docs/protocol.md §8), from what the code declares, so that
 * no route repeats it:
 * <ul>
 * <li>a guarded write ({@link RequireLock}, read by {@link LockGuardFilter#declared}, the rule the guard
 * follows): the {@code Lock-Token} header, naming the lock the guard accepts, and the 400, 404, 423 and
 * 412 responses. An entry's change takes the entry's fields as its body, none of them required;
 * <li>a write no lock guards: the {@code Lock-Token} header too, which it does not check but still parses
 * (a malformed one is 400, docs/protocol.md §7), so that a client sending its token on every write knows;
 * <li>a create that reads {@code Idempotency-Key}: what the key does, and the 409 and 422 responses;
 * <li>a write the rate limit counts ({@link RestWriteLimitFilter#limits}, the rule the filter follows):
 * the 429 response with its {@code Retry-After};
 * <li>a body's fields that {@link Bodies} ignores are read-only, and a body documented as an entity requires
 * its writable fields only.
 * </ul>
 * It runs on the document built from the annotations, while the application is built; the build's class
 * index names the resource classes.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class WriteDocs implements OASFilter {

    private static final Map<String, String> GUARD_REFUSALS = Map.of(
            "400",
            ApiDocs.BAD_REQUEST,
            "404",
            ApiDocs.NOT_FOUND,
            "423",
            ApiDocs.LOCKED,
            "412",
            ApiDocs.PRECONDITION_FAILED);
    private static final Map<String, String> IDEMPOTENCY_REFUSALS =
            Map.of("409", ApiDocs.IDEMPOTENCY_IN_PROGRESS, "422", ApiDocs.IDEMPOTENCY_KEY_REUSED);
    private static final Map<String, String> RATE_REFUSALS = Map.of("429", ApiDocs.TOO_MANY_REQUESTS);
    private static final Map<String, String> BODY_REFUSALS = Map.of("413", ApiDocs.PAYLOAD_TOO_LARGE);

    /** What the schema of an entry's change adds to the entry's name: {@code FilterChange}. */
    static final String CHANGE = "Change";

    /** What the schema of a create's (or a configurator rename's) body adds to the entity's name: {@code FilterInput}. */
    static final String INPUT = "Input";

    static final String UNCHECKED_LOCK_TOKEN =
            "Not checked: no lock covers this write. A value that is not a positive integer is still refused (400)";

    private final Map<String, Route> guarded;
    private final Set<String> unguardedWrites;
    private final Set<String> limited;

    /** A guarded route: the method that serves it, and its guard (its class's, when the method declares none). */
    record Route(Method method, RequireLock guard) {}

    public WriteDocs(IndexView index) {
        List<Class<?>> resources = resources(index);
        this.guarded = guardedRoutes(resources);
        this.unguardedWrites = unguardedWrites(resources);
        this.limited = limitedRoutes(resources);
    }

    /** The guarded routes of these resource classes, by {@code "PATCH /api/filters/{id}"}. */
    static Map<String, Route> guardedRoutes(Collection<Class<?>> resources) {
        Map<String, Route> routes = new LinkedHashMap<>();
        for (Class<?> resource : resources) {
            for (Method method : resource.getMethods()) {
                RequireLock guard = LockGuardFilter.declared(resource, method);
                if (guard != null && LockGuardFilter.isWrite(method)) {
                    routes.put(
                            httpMethod(method).orElseThrow() + " " + path(resource, method), new Route(method, guard));
                }
            }
        }
        return routes;
    }

    /** The writes of these resource classes that no {@link RequireLock} guards, by {@code "POST /api/configurators"}. */
    static Set<String> unguardedWrites(Collection<Class<?>> resources) {
        return routes(
                resources,
                (resource, method) ->
                        LockGuardFilter.isWrite(method) && LockGuardFilter.declared(resource, method) == null);
    }

    /** The routes of these resource classes that the write rate limit counts, by {@code "POST /api/configurators"}. */
    static Set<String> limitedRoutes(Collection<Class<?>> resources) {
        return routes(
                resources,
                (resource, method) -> httpMethod(method)
                        .filter(http -> RestWriteLimitFilter.limits(http, resource, method))
                        .isPresent());
    }

    /** The resource classes of the build's class index (those with a class-level {@link Path}). */
    static List<Class<?>> resources(IndexView index) {
        return index.getAnnotations(DotName.createSimple(Path.class)).stream()
                .filter(path -> path.target().kind() == AnnotationTarget.Kind.CLASS)
                .<Class<?>>map(path -> load(path.target().asClass().name().toString()))
                .toList();
    }

    /** The routes of these resource classes whose method {@code chosen} takes, by {@code "POST /api/configurators"}. */
    static Set<String> routes(Collection<Class<?>> resources, BiPredicate<Class<?>, Method> chosen) {
        Set<String> routes = new TreeSet<>();
        for (Class<?> resource : resources) {
            for (Method method : resource.getMethods()) {
                if (chosen.test(resource, method)) {
                    httpMethod(method).ifPresent(http -> routes.add(http + " " + path(resource, method)));
                }
            }
        }
        return routes;
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        openAPI.getPaths()
                .getPathItems()
                .forEach((path, item) -> item.getOperations().forEach((method, operation) -> {
                    Route route = guarded.get(method + " " + path);
                    if (route != null) {
                        guarded(openAPI, operation, route);
                    } else if (unguardedWrites.contains(method + " " + path)) {
                        lockTokenHeader(operation, UNCHECKED_LOCK_TOKEN);
                        refusals(operation, Map.of("400", ApiDocs.BAD_REQUEST));
                    }
                    if (limited.contains(method + " " + path)) {
                        refusals(operation, RATE_REFUSALS);
                    }
                    header(operation, IdempotentCreates.HEADER).ifPresent(key -> {
                        key.description(ApiDocs.IDEMPOTENCY_KEY)
                                .schema(OASFactory.createSchema()
                                        .addType(Schema.SchemaType.STRING)
                                        .minLength(1)
                                        .maxLength(64)
                                        .pattern("^[\\x20-\\x7E]+$"));
                        refusals(operation, IDEMPOTENCY_REFUSALS);
                    });
                    if (operation.getRequestBody() != null) {
                        refusals(operation, BODY_REFUSALS);
                    }
                    typedHeaders(operation);
                    body(operation)
                            .map(Schema::getRef)
                            .filter(Objects::nonNull)
                            .map(ref ->
                                    openAPI.getComponents().getSchemas().get(ref.substring(ref.lastIndexOf('/') + 1)))
                            .filter(schema -> schema != null && schema.getProperties() != null)
                            .ifPresent(schema -> schema.getProperties().forEach((name, property) -> {
                                if (Bodies.READ_ONLY.contains(name)) {
                                    property.readOnly(true);
                                }
                            }));
                }));
        openAPI.getPaths()
                .getPathItems()
                .values()
                .forEach(item -> item.getOperations().values().forEach(operation -> input(openAPI, operation)));
    }

    /**
     * A body documented as the entity it creates (or renames) holds the writable fields only, while the
     * entity's {@code required} lists the read-only ones too, as every answer holds them: OpenAPI 3.1 (JSON
     * Schema) holds a body to {@code required} whatever {@code readOnly} says. Such a body gets a copy of the
     * entity's fields that requires only the writable ones, under the entity's name with {@value #INPUT}.
     */
    private static void input(OpenAPI openAPI, Operation operation) {
        if (operation.getRequestBody() == null || operation.getRequestBody().getContent() == null) {
            return;
        }
        operation.getRequestBody().getContent().getMediaTypes().values().forEach(body -> {
            String ref = body.getSchema() == null ? null : body.getSchema().getRef();
            if (ref == null) {
                return;
            }
            String entity = ref.substring(ref.lastIndexOf('/') + 1);
            Schema schema = openAPI.getComponents().getSchemas().get(entity);
            if (schema == null
                    || schema.getRequired() == null
                    || schema.getRequired().stream().noneMatch(Bodies.READ_ONLY::contains)) {
                return;
            }
            List<String> writable = schema.getRequired().stream()
                    .filter(field -> !Bodies.READ_ONLY.contains(field))
                    .toList();
            body.schema(copy(
                    openAPI,
                    entity,
                    entity + INPUT,
                    "The fields of a " + entity + " a body sets; the read-only ones may be sent back and are ignored",
                    writable));
        });
    }

    private static void guarded(OpenAPI openAPI, Operation operation, Route route) {
        lockTokenHeader(operation, lockTokenOf(route.guard()));
        refusals(operation, GUARD_REFUSALS);
        // The change of an entry (EntryResource's own PATCH): a route an entry resource adds documents its own body.
        if (route.method().getDeclaringClass() == EntryResource.class && operation.getRequestBody() != null) {
            Schema entry = operation
                    .getResponses()
                    .getAPIResponse("200")
                    .getContent()
                    .getMediaTypes()
                    .values()
                    .iterator()
                    .next()
                    .getSchema();
            Schema change = change(openAPI, entry.getRef());
            operation.getRequestBody().getContent().getMediaTypes().values().forEach(body -> body.schema(change));
        }
    }

    /**
     * An entry's change names the fields it changes and keeps the others, so none is required there, while
     * the entry's own {@code required} says what a create must hold: the change gets a copy of the entry's
     * fields without it, under the entry's name with {@value #CHANGE}.
     */
    private static Schema change(OpenAPI openAPI, String entryRef) {
        String entry = entryRef.substring(entryRef.lastIndexOf('/') + 1);
        return copy(
                openAPI,
                entry,
                entry + CHANGE,
                "The fields of the " + entry + " to change, at least one: the others keep their values",
                List.of());
    }

    /**
     * A reference to {@code name}, a copy of the schema {@code of}'s fields that requires {@code required} only
     * (none when empty); made once.
     */
    private static Schema copy(OpenAPI openAPI, String of, String name, String description, List<String> required) {
        Map<String, Schema> schemas = openAPI.getComponents().getSchemas();
        if (!schemas.containsKey(name)) {
            Map<String, Schema> properties = new LinkedHashMap<>();
            schemas.get(of).getProperties().forEach((field, property) -> {
                Schema copy = OASFactory.createSchema();
                copy.setAll(property.getAll());
                properties.put(field, copy);
            });
            Schema copy = OASFactory.createSchema()
                    .addType(Schema.SchemaType.OBJECT)
                    .description(description)
                    .properties(properties);
            if (!required.isEmpty()) {
                copy.required(required);
            }
            openAPI.getComponents().addSchema(name, copy);
        }
        return OASFactory.createSchema().ref(name);
    }

    private static void lockTokenHeader(Operation operation, String description) {
        if (header(operation, LockGuardFilter.LOCK_TOKEN).isEmpty()) {
            operation.addParameter(OASFactory.createParameter()
                    .name(LockGuardFilter.LOCK_TOKEN)
                    .in(Parameter.In.HEADER)
                    .description(description)
                    .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
        }
    }

    /** Which of the writer's locks the token may name (§7): the guard's own lock, or the configurator's. */
    static String lockTokenOf(RequireLock guard) {
        if (guard.value() == GuardType.VARIABLES) {
            return "Fencing token of your variables or configurator lock";
        }
        if (guard.value() != GuardType.PAGE) {
            return "Fencing token of your configurator lock";
        }
        String page = (guard.page().length > 0 ? guard.page()[0] : guard.idOf().page()).wireName();
        String item = guard.idOf().isEntry() ? "the entry's item" : "the item";
        return "Fencing token of your lock on the " + page + " page of " + item + ", or of your configurator lock";
    }

    /** Over any default the scanner put there (it answers 400 for routes with a header parameter). */
    private static void refusals(Operation operation, Map<String, String> refusals) {
        APIResponses responses = operation.getResponses();
        refusals.forEach((status, response) ->
                responses.addAPIResponse(status, OASFactory.createAPIResponse().ref(response)));
    }

    /**
     * A response header declared by name alone ({@code Location}, {@code Link}) gets the string schema that
     * OpenAPI requires of every header: strict validators and client generators refuse one without.
     */
    private static void typedHeaders(Operation operation) {
        if (operation.getResponses() == null || operation.getResponses().getAPIResponses() == null) {
            return;
        }
        operation.getResponses().getAPIResponses().values().stream()
                .filter(response -> response.getHeaders() != null)
                .flatMap(response -> response.getHeaders().values().stream())
                .filter(header -> header.getRef() == null && header.getSchema() == null && header.getContent() == null)
                .forEach(header -> header.schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
    }

    private static Optional<Parameter> header(Operation operation, String name) {
        List<Parameter> parameters = operation.getParameters() == null ? List.of() : operation.getParameters();
        return parameters.stream()
                .filter(parameter -> parameter.getIn() == Parameter.In.HEADER && name.equals(parameter.getName()))
                .findFirst();
    }

    private static Optional<Schema> body(Operation operation) {
        if (operation.getRequestBody() == null || operation.getRequestBody().getContent() == null) {
            return Optional.empty();
        }
        return operation.getRequestBody().getContent().getMediaTypes().values().stream()
                .map(MediaType::getSchema)
                .filter(Objects::nonNull)
                .findFirst();
    }

    /** {@code "GET"}, {@code "POST"}, …; empty for a method that is no route. */
    private static Optional<String> httpMethod(Method method) {
        return Arrays.stream(method.getAnnotations())
                .map(annotation -> annotation.annotationType().getAnnotation(HttpMethod.class))
                .filter(Objects::nonNull)
                .map(HttpMethod::value)
                .findFirst();
    }

    private static String path(Class<?> resource, Method method) {
        Path own = method.getAnnotation(Path.class);
        String path = ("/" + resource.getAnnotation(Path.class).value() + "/" + (own == null ? "" : own.value()))
                .replaceAll("/+", "/");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, WriteDocs.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a resource class the index names cannot be loaded: " + name, e);
        }
    }
}
