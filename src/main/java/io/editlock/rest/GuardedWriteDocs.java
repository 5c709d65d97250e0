package io.editlock.rest;

import io.editlock.lock.GuardType;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem.HttpMethod;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

/**
 * Documents every guarded write from its {@link RequireLock} declaration (docs/protocol.md §8), so
 * that no route repeats it: the {@code Lock-Token} header (whose lock it names follows from the guard)
 * and the 400, 404, 423 and 412 responses. Besides, a body's read-only fields (which {@link Bodies}
 * ignores) are documented read-only, and an entry's change takes the entry itself as its body.
 *
 * <p>It runs on the document built from the annotations, while the application is built; the routes
 * are found with the build's class index, and read with {@link LockGuardFilter#declared}, the rule the
 * guard itself follows.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class GuardedWriteDocs implements OASFilter {

    /** The refusals of a guarded write, by status: the shared responses of {@link ApiDocs}. */
    private static final Map<String, String> REFUSALS = Map.of("400", ApiDocs.BAD_REQUEST, "404", ApiDocs.NOT_FOUND,
            "423", ApiDocs.LOCKED, "412", ApiDocs.PRECONDITION_FAILED);

    private final Map<String, Route> guarded;

    /** A guarded route: its resource class and declaration. */
    record Route(Class<?> resource, RequireLock guard) {
    }

    public GuardedWriteDocs(IndexView index) {
        this.guarded = guardedRoutes(index.getAnnotations(DotName.createSimple(Path.class)).stream()
                .filter(path -> path.target().kind() == AnnotationTarget.Kind.CLASS)
                .<Class<?>>map(path -> load(path.target().asClass().name().toString()))
                .toList());
    }

    /** The guarded routes of these resource classes, by {@code "PATCH /api/filters/{id}"}. */
    static Map<String, Route> guardedRoutes(Collection<Class<?>> resources) {
        Map<String, Route> routes = new LinkedHashMap<>();
        for (Class<?> resource : resources) {
            for (Method method : resource.getMethods()) {
                RequireLock guard = LockGuardFilter.declared(resource, method);
                if (guard != null && LockGuardFilter.isWrite(method)) {
                    routes.put(httpMethod(method) + " " + path(resource, method), new Route(resource, guard));
                }
            }
        }
        return routes;
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        openAPI.getPaths().getPathItems().forEach((path, item) -> item.getOperations().forEach((method, operation) -> {
            Route route = guarded.get(method + " " + path);
            if (route != null) {
                document(operation, route);
            }
        }));
        openAPI.getPaths().getPathItems().values().stream()
                .flatMap(item -> item.getOperations().values().stream())
                .map(GuardedWriteDocs::bodySchema)
                .filter(Objects::nonNull)
                .map(ref -> openAPI.getComponents().getSchemas().get(ref.substring(ref.lastIndexOf('/') + 1)))
                .filter(Objects::nonNull)
                .distinct()
                .forEach(GuardedWriteDocs::markReadOnly);
    }

    private static void document(Operation operation, Route route) {
        boolean documented = operation.getParameters() != null && operation.getParameters().stream()
                .anyMatch(parameter -> LockGuardFilter.LOCK_TOKEN.equals(parameter.getName()));
        if (!documented) {
            operation.addParameter(OASFactory.createParameter().name(LockGuardFilter.LOCK_TOKEN).in(Parameter.In.HEADER)
                    .description(lockTokenOf(route.guard()))
                    .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
        }
        APIResponses responses = operation.getResponses();
        // Over any default the scanner put there (it answers 400 for routes with header parameters).
        REFUSALS.forEach((status, response) -> responses.addAPIResponse(status, OASFactory.createAPIResponse().ref(response)));
        if (EntryResource.class.isAssignableFrom(route.resource()) && operation.getRequestBody() != null
                && responses.hasAPIResponse("200")) {
            // The body of an entry's change is the entry, as the route answers it.
            operation.getRequestBody().getContent().getMediaTypes().values().forEach(body -> body.schema(
                    responses.getAPIResponse("200").getContent().getMediaTypes().values().iterator().next().getSchema()));
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

    private static String bodySchema(Operation operation) {
        if (operation.getRequestBody() == null || operation.getRequestBody().getContent() == null) {
            return null;
        }
        return operation.getRequestBody().getContent().getMediaTypes().values().stream()
                .map(body -> body.getSchema() == null ? null : body.getSchema().getRef())
                .filter(Objects::nonNull).findFirst().orElse(null);
    }

    private static void markReadOnly(Schema schema) {
        if (schema.getProperties() != null) {
            schema.getProperties().forEach((name, property) -> {
                if (Bodies.READ_ONLY.contains(name)) {
                    property.readOnly(true);
                }
            });
        }
    }

    private static String httpMethod(Method method) {
        if (method.isAnnotationPresent(POST.class)) {
            return HttpMethod.POST.name();
        }
        if (method.isAnnotationPresent(PATCH.class)) {
            return HttpMethod.PATCH.name();
        }
        return method.isAnnotationPresent(PUT.class) ? HttpMethod.PUT.name() : HttpMethod.DELETE.name();
    }

    private static String path(Class<?> resource, Method method) {
        Path own = method.getAnnotation(Path.class);
        String path = "/" + resource.getAnnotation(Path.class).value() + "/" + (own == null ? "" : own.value());
        path = path.replaceAll("/+", "/");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, GuardedWriteDocs.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a resource class the index names cannot be loaded: " + name, e);
        }
    }
}
