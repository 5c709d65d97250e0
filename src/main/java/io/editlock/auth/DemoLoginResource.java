package io.editlock.auth;

import io.editlock.config.EditlockConfig;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** {@code POST /api/auth/demo-login}: a token for any name, when demo login is on (docs/protocol.md §3). */
@Path("/api/auth/demo-login")
public class DemoLoginResource {

    private static final int MAX_FIELD = 128;

    private final EditlockConfig config;
    private final DemoTokenIssuer issuer;

    public DemoLoginResource(EditlockConfig config, DemoTokenIssuer issuer) {
        this.config = config;
        this.issuer = issuer;
    }

    public record DemoLoginRequest(String userId, String name, List<String> roles) {}

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Demo login: a signed token for any user (only when editlock.demo-login.enabled)")
    public Response login(DemoLoginRequest request) {
        if (!config.demoLogin().enabled()) {
            return Response.status(Response.Status.NOT_FOUND).build();
        }
        String problem = problemWith(request);
        if (problem != null) {
            return Response.status(Response.Status.BAD_REQUEST)
                    .entity(Map.of("message", problem))
                    .build();
        }
        List<String> roles = request.roles() == null ? List.of() : request.roles();
        return Response.ok(Map.of("token", issuer.issue(request.userId(), request.name(), roles)))
                .build();
    }

    private static String problemWith(DemoLoginRequest request) {
        if (request == null) {
            return "a JSON body {userId, name, roles?} is required";
        }
        if (request.userId() == null
                || request.userId().isBlank()
                || request.userId().length() > MAX_FIELD) {
            return "userId must be a non-empty string of at most " + MAX_FIELD + " characters";
        }
        if (request.name() == null || request.name().isBlank() || request.name().length() > MAX_FIELD) {
            return "name must be a non-empty string of at most " + MAX_FIELD + " characters";
        }
        if (request.roles() != null && request.roles().stream().anyMatch(role -> role == null || role.isBlank())) {
            return "roles must be a list of non-empty strings";
        }
        return null;
    }
}
