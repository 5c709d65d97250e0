package io.editlock.limits;

/** How many sockets a user has open on this node; the session registry keeps count. */
public interface OpenSockets {

    int openBy(String userId);
}
