package io.editlock.rest;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

/**
 * Takes out the 403 that Quarkus's OpenAPI scanner adds, bodiless ("Not Allowed"), to every route that
 * needs a token. Most routes need no role and never answer 403 (docs/rest-api.md); the two that can
 * (a lock's delete, a configurator's delete) declare their own 403, with its {@code Message} body, and
 * keep it. A client generator reading the scanner's 403 would handle a refusal that never comes, and
 * one without a body where the real ones have a message.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class RoleRefusalDocs implements OASFilter {

    static final String FORBIDDEN = "403";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        openAPI.getPaths().getPathItems().values().stream()
                .flatMap(item -> item.getOperations().values().stream())
                .filter(operation -> operation.getResponses() != null
                        && scannersOwn(operation.getResponses().getAPIResponse(FORBIDDEN)))
                .forEach(operation -> operation.getResponses().removeAPIResponse(FORBIDDEN));
    }

    /** What the route declares has a body or names a shared response; the scanner's default has neither. */
    private static boolean scannersOwn(APIResponse response) {
        return response != null && response.getRef() == null && response.getContent() == null;
    }
}
