package io.editlock.rest;

import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * The REST API's description for {@code /q/openapi}: the error responses every route refers to, and the
 * shapes of the answers that are written as JSON trees rather than types (errors, locks). Request
 * bodies are documented as the types they are; {@link WriteDocs} adds what every guarded write, every
 * create and every rate-limited write answer.
 */
@OpenAPIDefinition(
        info =
                @Info(
                        title = "editlock",
                        version = "1",
                        description =
                                "Edit locks for product configurators: the configurator store, guarded by locks (docs/protocol.md §8). "
                                        + "A method a path does not list is refused with 405 and the JSON message, its "
                                        + "Allow header naming the methods the path has (components.responses."
                                        + ApiDocs.METHOD_NOT_ALLOWED
                                        + ")."),
        components =
                @Components(
                        responses = {
                            @APIResponse(
                                    name = ApiDocs.BAD_REQUEST,
                                    description =
                                            "Invalid body (missing or mistyped field, blank name, "
                                                    + "unknown field, bad reference), or a Lock-Token that is not a positive integer",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.UNAUTHORIZED,
                                    description = "No bearer token, or a token that does not verify "
                                            + "(with WWW-Authenticate: Bearer)",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.FORBIDDEN,
                                    description = "The token has no role admin",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.NOT_FOUND,
                                    description = "No such configurator, item or entry",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.LOCKED,
                                    description = "Another user holds a lock that conflicts with this write",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Locked.class))),
                            @APIResponse(
                                    name = ApiDocs.PRECONDITION_FAILED,
                                    description = "The Lock-Token is not the token of a lock you hold "
                                            + "now that covers this write (you lost the lock, or it names another one)",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.IDEMPOTENCY_IN_PROGRESS,
                                    description = "A request with this Idempotency-Key is still "
                                            + "in progress; retry in a moment",
                                    headers =
                                            @Header(
                                                    name = "Retry-After",
                                                    description = "Seconds to wait before trying again",
                                                    schema = @Schema(type = SchemaType.INTEGER)),
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.IDEMPOTENCY_KEY_REUSED,
                                    description = "This Idempotency-Key was already used for "
                                            + "another request (another body or route)",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.TOO_MANY_REQUESTS,
                                    description =
                                            "More writes in this second than one user may make "
                                                    + "(editlock.limits.rest.writes-per-second, over all nodes): nothing was written",
                                    headers =
                                            @Header(
                                                    name = "Retry-After",
                                                    description = "Seconds to wait before writing again",
                                                    schema = @Schema(type = SchemaType.INTEGER)),
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.UNAVAILABLE,
                                    description = "The lock store cannot be reached: nothing was read or written",
                                    headers =
                                            @Header(
                                                    name = "Retry-After",
                                                    description = "Seconds to wait before trying again",
                                                    schema = @Schema(type = SchemaType.INTEGER)),
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.UNSUPPORTED_MEDIA_TYPE,
                                    description = "The request's Content-Type names another type than "
                                            + "application/json (a wildcard */* is taken as JSON)",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.NOT_ACCEPTABLE,
                                    description = "The Accept header admits no JSON, the only type the route answers; "
                                            + "the refusal is the JSON message all the same",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.METHOD_NOT_ALLOWED,
                                    description =
                                            "The path has no route for this method; Allow names the methods it has",
                                    headers =
                                            @Header(
                                                    name = "Allow",
                                                    description = "The path's methods, HEAD with GET, and OPTIONS",
                                                    schema = @Schema(type = SchemaType.STRING)),
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class))),
                            @APIResponse(
                                    name = ApiDocs.PAYLOAD_TOO_LARGE,
                                    description = "The body is larger than the server accepts "
                                            + "(quarkus.http.limits.max-body-size): nothing was read",
                                    content =
                                            @Content(
                                                    mediaType = MediaType.APPLICATION_JSON,
                                                    schema = @Schema(implementation = ApiDocs.Message.class)))
                        }))
public class ApiDocs extends Application {

    static final String BAD_REQUEST = "BadRequest";
    static final String UNAUTHORIZED = "Unauthorized";
    static final String FORBIDDEN = "Forbidden";
    static final String NOT_FOUND = "NotFound";
    static final String LOCKED = "Locked";
    static final String PRECONDITION_FAILED = "PreconditionFailed";
    static final String TOO_MANY_REQUESTS = "TooManyRequests";
    static final String UNAVAILABLE = "Unavailable";
    static final String PAYLOAD_TOO_LARGE = "PayloadTooLarge";
    static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";
    static final String NOT_ACCEPTABLE = "NotAcceptable";
    static final String METHOD_NOT_ALLOWED = "MethodNotAllowed";
    static final String IDEMPOTENCY_IN_PROGRESS = "IdempotencyKeyInProgress";
    static final String IDEMPOTENCY_KEY_REUSED = "IdempotencyKeyReused";
    static final String IDEMPOTENCY_KEY =
            "Makes the create safe to retry: 1 to 64 printable ASCII characters. A retry with the "
                    + "same key and body within 24 h gets the first answer again, and nothing is created twice";

    @Schema(requiredProperties = "message")
    public record Message(String message) {}

    // configuratorId, itemId and page are there as the type needs them.
    @Schema(requiredProperties = "type")
    public record ResourceView(
            @Schema(enumeration = {"configurator", "variables", "item-subresource"})
            String type,

            Long configuratorId,
            Long itemId,

            @Schema(enumeration = {"filters", "dependencies", "attributes"})
            String page) {}

    /** The 423 body: the other user's lock that blocks the write. */
    @Schema(requiredProperties = {"message", "lockedBy", "lockedByUserId", "resource", "expiresAt"})
    public record Locked(
            @Schema(example = "Currently edited by Sara") String message,
            String lockedBy,
            String lockedByUserId,
            ResourceView resource,
            @Schema(format = "date-time") String expiresAt) {}

    @Schema(requiredProperties = {"resource", "ownerUserId", "ownerUserName", "acquiredAt", "expiresAt"})
    public record LockView(
            ResourceView resource,
            String ownerUserId,
            String ownerUserName,
            @Schema(format = "date-time") String acquiredAt,
            @Schema(format = "date-time") String expiresAt) {}
}
