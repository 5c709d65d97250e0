package io.editlock.rest;

import io.editlock.catalog.IdempotencyKeyInUseException;
import io.editlock.catalog.IdempotencyKeyReusedException;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** The refusals of {@code Idempotency-Key} as HTTP (docs/protocol.md §8): 422 reused for another request, 409 in progress. */
public class IdempotencyErrors {

    static final int UNPROCESSABLE = 422;

    @ServerExceptionMapper
    public Response reused(IdempotencyKeyReusedException e) {
        return RestErrors.message(UNPROCESSABLE, e.getMessage());
    }

    @ServerExceptionMapper
    public Response inUse(IdempotencyKeyInUseException e) {
        return Response.fromResponse(RestErrors.message(Response.Status.CONFLICT.getStatusCode(), e.getMessage()))
                .header("Retry-After", "1").build();
    }
}
