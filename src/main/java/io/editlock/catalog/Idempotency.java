package io.editlock.catalog;

import java.time.Duration;

/**
 * A create that carries an {@code Idempotency-Key} (docs/protocol.md §8), as the stores need it: the
 * id the entity gets (the same on every retry of the request), the name of the key's record inside
 * the configurator's keys (see {@code LockKeys.idempotencyRecord}), the request's fingerprint and how
 * long the record is kept.
 *
 * @param id          the id reserved for the entity by the first attempt
 * @param keyId       the user and key, hashed: never meets another user's key
 * @param fingerprint route and body of the request; another request under the same key is refused
 */
public record Idempotency(long id, String keyId, String fingerprint, Duration ttl) {}
