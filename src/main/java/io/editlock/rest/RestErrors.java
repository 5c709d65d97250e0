package io.editlock.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.auth.Identity;
import io.editlock.catalog.IdempotencyKeyInUseException;
import io.editlock.catalog.IdempotencyKeyReusedException;
import io.editlock.catalog.InvalidInputException;
import io.editlock.catalog.NotPermittedException;
import io.editlock.catalog.UnknownIdException;
import io.editlock.lock.AuditText;
import io.editlock.lock.Lock;
import io.editlock.lock.LockAudit;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.lock.LockTokenMismatchException;
import io.editlock.lock.LockedException;
import io.editlock.protocol.Messages;
import io.editlock.protocol.WireFormat;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place where refusals become HTTP: 400 invalid input, 401 no valid token, 403 not allowed, 404 unknown
 * id, 423 locked by another user, 412 stale Lock-Token, 422/409 an {@code Idempotency-Key} reused for another
 * request or still in progress (docs/protocol.md §8), 503 lock store unreachable (writes fail closed). Every
 * body is JSON with a {@code message}.
 */
public class RestErrors {

    /** Status 423 Locked (WebDAV), which {@link Response.Status} does not name. */
    public static final int LOCKED = 423;
    /** Status 429: a user's writes beyond the rate limit (answered with Retry-After by RestWriteLimitFilter). */
    public static final int TOO_MANY_REQUESTS = 429;
    /** Status 422: an Idempotency-Key sent again with another request. */
    static final int UNPROCESSABLE = 422;

    private static final Logger LOG = Logger.getLogger(RestErrors.class);

    private final LockAudit audit;
    private final RouteMethods routes;

    public RestErrors(LockAudit audit, RouteMethods routes) {
        this.audit = audit;
        this.routes = routes;
    }

    private static String target(ContainerRequestContext request) {
        return request.getMethod() + " /" + request.getUriInfo().getPath().replaceFirst("^/", "");
    }

    private static String caller(ContainerRequestContext request) {
        var principal = request.getSecurityContext().getUserPrincipal();
        return principal == null ? null : Identity.userIdOf(principal);
    }

    @ServerExceptionMapper
    public Response invalid(InvalidInputException e) {
        return message(Response.Status.BAD_REQUEST.getStatusCode(), e.getMessage());
    }

    @ServerExceptionMapper
    public Response notJson(JsonProcessingException e) {
        return message(Response.Status.BAD_REQUEST.getStatusCode(), "the body is not valid JSON");
    }

    /**
     * Content after the body's value (docs/protocol.md §11): Jackson reports it as a mismatched input,
     * for which Quarkus has a more specific mapper of its own that answers without a body.
     */
    @ServerExceptionMapper
    public Response notOneJsonValue(MismatchedInputException e) {
        return notJson(e);
    }

    /**
     * Refusals Quarkus makes itself (a body that does not parse, 405 a method the route lacks, 415 a body
     * that is not JSON, 406) arrive as WebApplicationExceptions without a body; clients read every error
     * the same way, so they get the JSON message too, and keep whatever headers Quarkus set. A 405 names
     * the methods the path has, which Quarkus leaves out.
     */
    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, ContainerRequestContext request) {
        if (e.getCause() instanceof JsonProcessingException) {
            return notJson((JsonProcessingException) e.getCause());
        }
        Response refusal = e.getResponse();
        if (refusal.getStatus() < Response.Status.BAD_REQUEST.getStatusCode()) {
            return refusal;
        }
        Response.ResponseBuilder answer = Response.fromResponse(refusal)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(WireFormat.object().put("message", e.getMessage()));
        if (refusal.getStatus() == Response.Status.METHOD_NOT_ALLOWED.getStatusCode()
                && refusal.getAllowedMethods().isEmpty()) {
            answer.allow(routes.allowed(request.getUriInfo().getRequestUri().getRawPath()));
        }
        return answer.build();
    }

    /**
     * Quarkus's security checks (a route's {@code @Authenticated} or {@code @RolesAllowed}) run where the
     * route needs them, since authentication is not proactive, so their refusals arrive here like ours:
     * no token, a token that does not verify, a role the token lacks.
     */
    @ServerExceptionMapper
    public Response noToken(UnauthorizedException e) {
        return unauthorized("a bearer token is required (Authorization: Bearer <token>)");
    }

    @ServerExceptionMapper
    public Response badToken(AuthenticationFailedException e) {
        return unauthorized("the bearer token is not valid (signature, issuer, audience, expiry or subject)");
    }

    /** Only writes check a role (breaking a lock needs admin): a refusal is audited like every refused write. */
    @ServerExceptionMapper
    public Response lacksRole(ForbiddenException e, ContainerRequestContext request) {
        audit.writeRefused(Response.Status.FORBIDDEN.getStatusCode(), target(request), caller(request), "not-allowed");
        return message(Response.Status.FORBIDDEN.getStatusCode(), "the token lacks the role this request needs");
    }

    @ServerExceptionMapper
    public Response notPermitted(NotPermittedException e, ContainerRequestContext request) {
        audit.writeRefused(Response.Status.FORBIDDEN.getStatusCode(), target(request), caller(request), "not-allowed");
        return message(Response.Status.FORBIDDEN.getStatusCode(), e.getMessage());
    }

    @ServerExceptionMapper
    public Response unknown(UnknownIdException e) {
        return message(Response.Status.NOT_FOUND.getStatusCode(), e.getMessage());
    }

    /** {message, lockedBy, lockedByUserId, resource, expiresAt}: the other user's lock that blocks the write. */
    @ServerExceptionMapper
    public Response locked(LockedException e, ContainerRequestContext request) {
        Lock blocking = e.blocking();
        audit.writeRefused(
                LOCKED,
                target(request),
                caller(request),
                "blocked-by=" + blocking.resource() + " holder=" + AuditText.quote(blocking.ownerUserId()));
        ObjectNode body = WireFormat.object()
                .put("message", Messages.currentlyEditedBy(blocking.ownerUserName()))
                .put("lockedBy", blocking.ownerUserName())
                .put("lockedByUserId", blocking.ownerUserId());
        body.set("resource", WireFormat.resource(blocking.resource()));
        body.put("expiresAt", blocking.expiresAt().toString());
        return Response.status(LOCKED)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(body)
                .build();
    }

    @ServerExceptionMapper
    public Response staleToken(LockTokenMismatchException e, ContainerRequestContext request) {
        audit.writeRefused(
                Response.Status.PRECONDITION_FAILED.getStatusCode(),
                target(request),
                caller(request),
                "lock-token=" + AuditText.quote(request.getHeaderString("Lock-Token")));
        return message(Response.Status.PRECONDITION_FAILED.getStatusCode(), e.getMessage());
    }

    @ServerExceptionMapper
    public Response unavailable(LockStoreUnavailableException e) {
        LOG.debugf("lock store unavailable: %s", e.getMessage());
        return Response.fromResponse(
                        message(Response.Status.SERVICE_UNAVAILABLE.getStatusCode(), Messages.NOTHING_WRITTEN))
                .header("Retry-After", "1")
                .build();
    }

    @ServerExceptionMapper
    public Response idempotencyKeyReused(IdempotencyKeyReusedException e) {
        return message(UNPROCESSABLE, e.getMessage());
    }

    @ServerExceptionMapper
    public Response idempotencyKeyInUse(IdempotencyKeyInUseException e) {
        return Response.fromResponse(message(Response.Status.CONFLICT.getStatusCode(), e.getMessage()))
                .header("Retry-After", "1")
                .build();
    }

    /** The challenge tells a client which scheme to answer with, as Quarkus's own 401 did. */
    private static Response unauthorized(String message) {
        return Response.fromResponse(message(Response.Status.UNAUTHORIZED.getStatusCode(), message))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }

    static Response message(int status, String message) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(WireFormat.object().put("message", message))
                .build();
    }
}
