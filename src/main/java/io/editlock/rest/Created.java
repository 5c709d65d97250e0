package io.editlock.rest;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * A 201 whose {@code Location} is the new entity's path, as docs/rest-api.md writes it
 * ({@code /api/items/{id}}): relative (RFC 7231 §7.1.2), so that it is the same whichever node, host
 * name or scheme (a TLS proxy in front) the request came through, and an {@code Idempotency-Key} retry
 * answered elsewhere names it alike. Set as a header, not with {@link Response.ResponseBuilder#location},
 * which RESTEasy Reactive resolves against the request's own host and scheme.
 */
final class Created {

    private Created() {}

    /** @param path the entity's path, {@code /api/…/{id}} */
    static Response.ResponseBuilder at(String path) {
        return Response.status(Response.Status.CREATED).header(HttpHeaders.LOCATION, path);
    }

    /** The path a 201 named, as sent. */
    static String location(Response created) {
        return created.getHeaderString(HttpHeaders.LOCATION);
    }
}
