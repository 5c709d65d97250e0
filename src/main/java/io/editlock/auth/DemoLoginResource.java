package io.editlock.auth;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.config.EditlockConfig;
import io.editlock.protocol.UnicodeText;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/** {@code POST /api/auth/demo-login}: a token for any name, when demo login is on (docs/protocol.md §3). */
@Path(DemoLoginResource.PATH)
public class DemoLoginResource {

    static final String PATH = "/api/auth/demo-login";

    private static final int MAX_FIELD = 128;

    private final EditlockConfig config;
    private final DemoTokenIssuer issuer;

    public DemoLoginResource(EditlockConfig config, DemoTokenIssuer issuer) {
        this.config = config;
        this.issuer = issuer;
    }

    /** The body, as the demo and tests send it; the endpoint reads it strictly from JSON (no coercion). */
    @Schema(requiredProperties = {"userId", "name"})
    public record DemoLoginRequest(
            @Schema(minLength = 1, maxLength = MAX_FIELD) String userId,
            @Schema(minLength = 1, maxLength = MAX_FIELD) String name,
            List<String> roles) {}

    static NotFoundException off() {
        return new NotFoundException("demo login is off on this server");
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Demo login: a signed token for any user (only when editlock.demo-login.enabled)")
    @RequestBody(content = @Content(schema = @Schema(implementation = DemoLoginRequest.class)))
    @APIResponse(
            responseCode = "200",
            description = "The signed token (a JWT), to send as Authorization: Bearer",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema =
                                    @Schema(
                                            type = SchemaType.OBJECT,
                                            requiredProperties = "token",
                                            properties = @SchemaProperty(name = "token", type = SchemaType.STRING))))
    public Response login(JsonNode body) {
        if (!config.demoLogin().enabled()) {
            throw off(); // TokenFirst hides the path already; this stays the last word on handing out tokens
        }
        String problem = problemWith(body);
        if (problem != null) {
            return Response.status(Response.Status.BAD_REQUEST)
                    .entity(Map.of("message", problem))
                    .build();
        }
        List<String> roles = new ArrayList<>();
        present(body, "roles").ifPresent(list -> list.forEach(role -> roles.add(role.textValue())));
        return Response.ok(Map.of(
                        "token",
                        issuer.issue(
                                body.get("userId").textValue(), body.get("name").textValue(), roles)))
                .build();
    }

    private static String problemWith(JsonNode body) {
        if (body == null || !body.isObject()) {
            return "a JSON body {userId, name, roles?} is required";
        }
        if (!isName(body.get("userId"))) {
            return "userId must be a non-blank string of Unicode text of at most " + MAX_FIELD + " characters";
        }
        if (!isName(body.get("name"))) {
            return "name must be a non-blank string of Unicode text of at most " + MAX_FIELD + " characters";
        }
        Optional<JsonNode> roles = present(body, "roles");
        if (roles.isPresent()) {
            JsonNode list = roles.get();
            boolean allNames = list.isArray();
            for (JsonNode role : list) {
                allNames &= role.isTextual()
                        && !UnicodeText.blank(role.textValue())
                        && UnicodeText.wellFormed(role.textValue());
            }
            if (!allNames) {
                return "roles must be a list of non-blank strings of Unicode text";
            }
        }
        return null;
    }

    private static boolean isName(JsonNode node) {
        // Half a surrogate pair would be signed as "?": two ids would become one user (docs/protocol.md §3).
        return node != null
                && node.isTextual()
                // Blank as the server reads a token's sub (no-break spaces too): a token it would refuse.
                && !UnicodeText.blank(node.textValue())
                && UnicodeText.wellFormed(node.textValue())
                && node.textValue().codePointCount(0, node.textValue().length()) <= MAX_FIELD;
    }

    /** A field that is there and not null. */
    private static Optional<JsonNode> present(JsonNode body, String field) {
        return Optional.ofNullable(body.get(field)).filter(node -> !node.isNull());
    }
}
