package io.editlock.rest;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.Produces;
import java.lang.annotation.Annotation;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.jboss.jandex.IndexView;

/**
 * Documents the refusals Quarkus REST makes before a route runs (docs/rest-api.md, Errors), each with the
 * JSON message {@link RestErrors#webApplication} gives it: 415 on a route that declares what it
 * consumes ({@link Consumes}: a Content-Type other than JSON), 406 on a route that declares what it
 * produces ({@link Produces}: an Accept without JSON), on reads and deletes as on writes, as the framework
 * checks the headers whatever the method. A 405 (a method the path lacks) belongs to no documented
 * operation: its response is among the components, and the document's description names it.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class FrameworkRefusalDocs implements OASFilter {

    static final String UNSUPPORTED_MEDIA_TYPE = "415";
    static final String NOT_ACCEPTABLE = "406";

    private final Set<String> consuming;
    private final Set<String> producing;

    public FrameworkRefusalDocs(IndexView index) {
        List<Class<?>> resources = WriteDocs.resources(index);
        this.consuming = declaring(resources, Consumes.class);
        this.producing = declaring(resources, Produces.class);
    }

    /**
     * The routes of these resource classes whose method, the class that declares it or the resource class
     * carries {@code annotation}, by {@code "GET /api/items/{id}"}: where the framework matches the
     * header against it.
     */
    static Set<String> declaring(Collection<Class<?>> resources, Class<? extends Annotation> annotation) {
        return WriteDocs.routes(
                resources,
                (resource, method) -> method.isAnnotationPresent(annotation)
                        || method.getDeclaringClass().isAnnotationPresent(annotation)
                        || resource.isAnnotationPresent(annotation));
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        openAPI.getPaths()
                .getPathItems()
                .forEach((path, item) -> item.getOperations().forEach((method, operation) -> {
                    String route = method + " " + path;
                    if (consuming.contains(route)) {
                        refusal(operation, UNSUPPORTED_MEDIA_TYPE, ApiDocs.UNSUPPORTED_MEDIA_TYPE);
                    }
                    if (producing.contains(route)) {
                        refusal(operation, NOT_ACCEPTABLE, ApiDocs.NOT_ACCEPTABLE);
                    }
                }));
    }

    private static void refusal(Operation operation, String status, String response) {
        operation
                .getResponses()
                .addAPIResponse(status, OASFactory.createAPIResponse().ref(response));
    }
}
