package io.editlock.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.catalog.EntryStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/** What the routes of entries (filters, dependencies, attribute values, variables) do alike. */
@ApplicationScoped
public class EntryRoutes {

    private final EntryStore entries;
    private final GuardContext guards;
    private final IdempotentCreates idempotent;

    public EntryRoutes(EntryStore entries, GuardContext guards, IdempotentCreates idempotent) {
        this.entries = entries;
        this.guards = guards;
        this.idempotent = idempotent;
    }

    /** 201 with the entry and its Location. */
    static Response created(Entry entry) {
        return Response.created(URI.create("/api/" + entityOf(entry).collection() + "/" + entry.id()))
                .entity(entry)
                .build();
    }

    /** @param idempotencyKey the request's Idempotency-Key, null when absent */
    Uni<Response> add(Entity entity, JsonNode body, String idempotencyKey) {
        var fields = Bodies.newEntry(entity, body);
        IdempotentCreates.validate(idempotencyKey);
        var guard = guards.require().guard();
        return idempotent.create(
                idempotencyKey,
                entity,
                body,
                idempotency -> entries.add(guard, entity, fields, idempotency).map(EntryRoutes::created));
    }

    <E extends Entry> Uni<E> get(Entity entity, String id) {
        return typed(entries.find(entity, PathIds.require(entity, id)));
    }

    <E extends Entry> Uni<E> update(Entity entity, JsonNode body) {
        var changes = Bodies.changes(entity, body);
        GuardContext.Guarded guarded = guards.require();
        return typed(entries.update(guarded.guard(), entity, guarded.id(), changes));
    }

    Uni<Void> delete(Entity entity) {
        GuardContext.Guarded guarded = guards.require();
        return entries.delete(guarded.guard(), entity, guarded.id());
    }

    /** The store answers an entry of the entity it was asked for. */
    @SuppressWarnings("unchecked")
    private static <E extends Entry> Uni<E> typed(Uni<Entry> entry) {
        return (Uni<E>) (Uni<?>) entry;
    }

    private static Entity entityOf(Entry entry) {
        if (entry instanceof Entry.Filter) {
            return Entity.FILTER;
        }
        if (entry instanceof Entry.Dependency) {
            return Entity.DEPENDENCY;
        }
        if (entry instanceof Entry.AttributeValue) {
            return Entity.ATTRIBUTE_VALUE;
        }
        return Entity.VARIABLE;
    }
}
