package io.editlock.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.catalog.Entity;
import io.editlock.catalog.Entry;
import io.editlock.catalog.EntryStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

/**
 * How an entry (filter, dependency, attribute value, variable) is added to a page, shared by the create
 * routes of {@link ItemResource} and {@link ConfiguratorResource}; the 201's Location is the entry's
 * path under its {@link EntryResource}.
 */
@ApplicationScoped
public class EntryCreates {

    private final EntryStore entries;
    private final GuardContext guards;
    private final IdempotentCreates idempotent;

    public EntryCreates(EntryStore entries, GuardContext guards, IdempotentCreates idempotent) {
        this.entries = entries;
        this.guards = guards;
        this.idempotent = idempotent;
    }

    Uni<Response> add(Entity entity, JsonNode body) {
        var fields = Bodies.newEntry(entity, body);
        return idempotent.createUnder(
                guards,
                entity,
                body,
                (guard, idempotency) ->
                        entries.add(guard, entity, fields, idempotency).map(EntryCreates::created));
    }

    /** 201 with the entry and its Location. */
    private static Response created(Entry entry) {
        return Created.at("/api/" + entityOf(entry).collection() + "/" + entry.id())
                .entity(entry)
                .build();
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
