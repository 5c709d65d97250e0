package io.editlock.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.auth.Identity;
import io.editlock.catalog.CatalogIndex;
import io.editlock.catalog.Entity;
import io.editlock.catalog.Idempotency;
import io.editlock.catalog.IdempotencyKeyInUseException;
import io.editlock.catalog.IdempotencyKeyReusedException;
import io.editlock.catalog.InvalidInputException;
import io.editlock.config.EditlockConfig;
import io.editlock.lock.Guard;
import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Retry-safe creates (docs/protocol.md §8): runs a {@code POST} create under its
 * {@code Idempotency-Key}, if it carries one.
 *
 * <p>The first attempt reserves the entity's id under the key (a claim, kept for the record's
 * lifetime), so that every retry creates, or finds, the same entity. The create script itself then
 * writes the key's record beside the entity in the same run, and answers a retry with the first
 * reply. A request that was refused (it created nothing) gives its claim back; a store failure keeps
 * it, because the create may have happened without its answer arriving. A short in-flight mark
 * ({@link InFlightMarks}) answers a concurrent duplicate with 409.
 */
@ApplicationScoped
public class IdempotentCreates {

    public static final String HEADER = "Idempotency-Key";
    static final int MAX_KEY_LENGTH = 64;
    /**
     * A retry is the same request when its body is the same JSON, whatever its key order, whitespace
     * or escapes, and a null field is an absent one (as for every body); numbers stay as parsed.
     */
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
            .disable(JsonNodeFeature.WRITE_NULL_PROPERTIES)
            .build();

    private final PipelinedRedis redis;
    private final InFlightMarks marks;
    private final CatalogIndex index;
    private final LockKeys keys;
    private final JsonWebToken token;
    private final CurrentVertxRequest request;
    private final ObjectMapper json;
    private final Duration ttl;

    public IdempotentCreates(
            PipelinedRedis redis,
            InFlightMarks marks,
            CatalogIndex index,
            LockKeys keys,
            JsonWebToken token,
            CurrentVertxRequest request,
            ObjectMapper json,
            EditlockConfig config) {
        this.redis = redis;
        this.marks = marks;
        this.index = index;
        this.keys = keys;
        this.token = token;
        this.request = request;
        this.json = json;
        this.ttl = config.idempotency().ttl();
    }

    /**
     * 400 for a key that is not 1 to 64 printable ASCII characters, an empty one included. Call
     * before anything else is checked but the body.
     */
    public void validateKey() {
        String key = sentKey();
        if (key == null) {
            return;
        }
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH || !key.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
            throw new InvalidInputException(HEADER + " must be 1 to " + MAX_KEY_LENGTH + " printable ASCII characters");
        }
    }

    /**
     * The key as the request sent it, null when absent; more than one is 400. Read here rather than taken as a
     * {@code @HeaderParam}, which hands an empty header over as an absent one: a client that sent one
     * must hear that it is no key, not lose its retry safety without a word.
     */
    private String sentKey() {
        List<String> sent = request.getCurrent().request().headers().getAll(HEADER);
        if (sent.size() > 1) {
            // Which one the client meant cannot be known; taking either could replay the wrong answer.
            throw new InvalidInputException("send one " + HEADER + ", not " + sent.size());
        }
        return sent.isEmpty() ? null : sent.get(0);
    }

    /**
     * A create under the place its path names ({@link GuardContext}): as {@link #create}, with that
     * place's guard. When the place names nothing (any more), a retry whose first attempt was answered
     * gets that answer again (docs/protocol.md §8: the first answer, even when the place was deleted
     * since); anything else is the place's 404.
     */
    public Uni<Response> createUnder(
            GuardContext guards, Entity entity, JsonNode body, BiFunction<Guard, Idempotency, Uni<Response>> create) {
        validateKey();
        String key = sentKey();
        if (key == null || guards.unknown() == null) {
            Guard guard = guards.require().guard();
            return create(entity, body, idempotency -> create.apply(guard, idempotency));
        }
        String fingerprint = fingerprint(body);
        return execute(Command.GET, keys.idempotencyClaim(keyId(key)))
                .map(claim -> firstAnswer(claim, fingerprint).orElseThrow(guards::unknown));
    }

    /**
     * @param entity what is created (whose id sequence the reservation draws from)
     * @param body   the request body as parsed (part of the fingerprint, in its canonical form)
     * @param create the create itself, given null without a key
     */
    public Uni<Response> create(Entity entity, JsonNode body, Function<Idempotency, Uni<Response>> create) {
        String key = sentKey();
        if (key == null) {
            return create.apply(null);
        }
        validateKey();
        String keyId = keyId(key);
        String fingerprint = fingerprint(body);
        String mark = UUID.randomUUID().toString();
        AtomicBoolean anotherHoldsTheMark = new AtomicBoolean();
        return marks.mark(keyId, mark)
                .flatMap(marked -> {
                    if (!marked) {
                        anotherHoldsTheMark.set(true);
                        return Uni.createFrom().failure(new IdempotencyKeyInUseException());
                    }
                    return claim(entity, keyId, fingerprint)
                            .flatMap(id -> create.apply(new Idempotency(id, keyId, fingerprint, ttl))
                                    .onFailure(IdempotentCreates::createdNothing)
                                    .call(() -> execute(Command.DEL, keys.idempotencyClaim(keyId))
                                            .onFailure()
                                            .recoverWithNull())
                                    .call(answer -> rememberAnswer(keyId, id, fingerprint, answer)));
                })
                // The mark goes before the answer, so that a retry right after it replays the answer.
                .call(() -> marks.clear(keyId, mark)
                        .onFailure()
                        .invoke(() -> clearInBackground(keyId, mark))
                        .onFailure()
                        .recoverWithNull())
                // Also when the mark's answer did not come (a failure, or the client went away): it may
                // have been set all the same, and every retry would be 409 until it expired. Without
                // waiting: a store that failed the request would only make its 503 later.
                .onFailure()
                .invoke(() -> {
                    if (!anotherHoldsTheMark.get()) {
                        clearInBackground(keyId, mark);
                    }
                })
                .onCancellation()
                .invoke(() -> clearInBackground(keyId, mark));
    }

    /** Tried until it lands or the mark has run out anyway: the store that failed the request may fail this too. */
    private void clearInBackground(String keyId, String mark) {
        marks.clear(keyId, mark)
                .onFailure()
                .retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .expireIn(InFlightMarks.LIFETIME.toMillis())
                .subscribe()
                .with(cleared -> {}, failed -> {});
    }

    /**
     * The id reserved under the key: the first attempt's for a retry (read first, so that a retry draws
     * no id), a new one for the first attempt.
     */
    private Uni<Long> claim(Entity entity, String keyId, String fingerprint) {
        String claim = keys.idempotencyClaim(keyId);
        return execute(Command.GET, claim)
                .flatMap(earlier -> earlier != null
                        ? Uni.createFrom().item(() -> reserved(earlier, fingerprint))
                        : index.nextId(entity)
                                .flatMap(fresh -> execute(
                                                Command.SET,
                                                claim,
                                                fresh + "|" + fingerprint,
                                                "NX",
                                                "PX",
                                                String.valueOf(ttl.toMillis()))
                                        .flatMap(set -> set != null
                                                ? Uni.createFrom().item(fresh)
                                                : execute(Command.GET, claim).map(existing -> {
                                                    if (existing == null) {
                                                        // Given back this very moment: the client retries.
                                                        throw new IdempotencyKeyInUseException();
                                                    }
                                                    return reserved(existing, fingerprint);
                                                }))));
    }

    /**
     * A claim is {@code <id>|<fingerprint>}, and once the create was answered {@code |<answer>} after
     * that. The id it reserved, for a request with this fingerprint; another request's claim is a reuse.
     */
    private static long reserved(String claim, String fingerprint) {
        String[] parts = claim.split("\\|", 3);
        if (parts.length < 2 || !parts[1].equals(fingerprint)) {
            throw new IdempotencyKeyReusedException();
        }
        return Long.parseLong(parts[0]);
    }

    /**
     * The claim keeps the answer too, outside the place's keys, for a retry that comes after the place
     * was deleted, when the record beside it can no longer be found. Only a lost answer of this write
     * leaves the claim without it, and that retry then gets the place's 404.
     */
    private Uni<Void> rememberAnswer(String keyId, long id, String fingerprint, Response answer) {
        if (answer.getStatus() != Response.Status.CREATED.getStatusCode()) {
            return Uni.createFrom().voidItem();
        }
        ObjectNode kept = json.createObjectNode()
                .put("status", answer.getStatus())
                .put("location", Created.location(answer))
                .set("body", json.valueToTree(answer.getEntity()));
        return execute(Command.SET, keys.idempotencyClaim(keyId), id + "|" + fingerprint + "|" + kept, "XX", "KEEPTTL")
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /** The answer a claim kept, for a request with this fingerprint; none when there is no claim or no answer in it. */
    private Optional<Response> firstAnswer(String claim, String fingerprint) {
        if (claim == null) {
            return Optional.empty();
        }
        reserved(claim, fingerprint);
        String[] parts = claim.split("\\|", 3);
        if (parts.length < 3) {
            return Optional.empty();
        }
        JsonNode kept;
        try {
            kept = json.readTree(parts[2]);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a claim keeps an answer that is not JSON", e);
        }
        // As first sent (a relative path); a claim kept by an older version may hold an absolute URI, its path
        // is the same.
        return Optional.of(Response.status(kept.path("status").asInt())
                .header(HttpHeaders.LOCATION, relative(kept.path("location").asText()))
                .type(MediaType.APPLICATION_JSON_TYPE.withCharset(StandardCharsets.UTF_8.name()))
                .entity(kept.get("body"))
                .build());
    }

    /** The path of a kept Location: itself, or the path of an absolute URI (as kept before Locations were paths). */
    static String relative(String location) {
        try {
            URI uri = URI.create(location);
            return uri.isAbsolute() && uri.getRawPath() != null ? uri.getRawPath() : location;
        } catch (IllegalArgumentException notAUri) {
            return location;
        }
    }

    /** The user and key, hashed: never meets another user's key. */
    private String keyId(String key) {
        return sha256(Identity.of(token).userId() + "\u0000" + key);
    }

    /** The request's method, route and body: another request under the same key is refused. */
    private String fingerprint(JsonNode body) {
        var http = request.getCurrent().request();
        return sha256(http.method().name() + " " + route(http.path()) + "\n" + canonical(body));
    }

    /** Refusals (400, 404, 412, 423 …) created nothing; a store failure or a reused key may hide a create. */
    private static boolean createdNothing(Throwable failure) {
        return !(failure instanceof LockStoreUnavailableException)
                && !(failure instanceof IdempotencyKeyReusedException);
    }

    /** The reply as text; null for a nil reply. */
    private Uni<String> execute(Command command, String... args) {
        return redis.execute(command, args)
                .map(reply -> reply == null ? null : reply.toString())
                .onFailure()
                .transform(LockStoreUnavailableException::of);
    }

    /**
     * The path with each id in it as its number: {@code /api/items/031/filters} names the item that
     * {@code /api/items/31/filters} names ({@link ApiNumbers#pathId}), so it is the same route.
     */
    private static String route(String path) {
        return Arrays.stream(decoded(path).split("/"))
                .filter(segment -> !segment.isEmpty())
                .map(segment -> ApiNumbers.pathId(segment).map(String::valueOf).orElse(segment))
                .collect(Collectors.joining("/", "/", ""));
    }

    /**
     * The path as the router reads it: {@code %36%32} is {@code 62}, and an empty segment (a doubled or
     * a trailing slash) names nothing, so {@code /api/items//62/filters/} is the same route.
     */
    private static String decoded(String path) {
        try {
            String decoded = URI.create(path).getPath();
            return decoded == null ? path : decoded;
        } catch (IllegalArgumentException notAUri) {
            return path;
        }
    }

    private static String canonical(JsonNode body) {
        if (body == null) {
            return "";
        }
        try {
            return CANONICAL.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed body must write back as JSON", e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
