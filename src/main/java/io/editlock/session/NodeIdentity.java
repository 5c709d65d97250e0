package io.editlock.session;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** This server process among the nodes sharing one Redis: a new id at every start. */
@ApplicationScoped
public class NodeIdentity {

    private final String id = UUID.randomUUID().toString().substring(0, 13);

    public String id() {
        return id;
    }
}
