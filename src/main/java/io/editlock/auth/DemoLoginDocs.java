package io.editlock.auth;

import io.editlock.config.EditlockConfig;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;

/**
 * With demo login off, {@code /q/openapi} does not list its route, as the route itself does not exist then
 * for any method ({@link TokenFirst}): a document naming it would tell a prober what the 404 hides. The
 * document is built from the annotations while the application is built, before the setting is known,
 * so this runs once more when the application starts.
 */
@Singleton
@OpenApiFilter(stages = OpenApiFilter.RunStage.RUNTIME_STARTUP)
public class DemoLoginDocs implements OASFilter {

    /** The body's schema, which no other route takes. */
    private static final String BODY = DemoLoginResource.DemoLoginRequest.class.getSimpleName();

    private final boolean on;

    public DemoLoginDocs(EditlockConfig config) {
        this.on = config.demoLogin().enabled();
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (on) {
            return;
        }
        if (openAPI.getPaths() != null) {
            openAPI.getPaths().removePathItem(DemoLoginResource.PATH);
        }
        if (openAPI.getComponents() != null && openAPI.getComponents().getSchemas() != null) {
            openAPI.getComponents().removeSchema(BODY);
        }
    }
}
