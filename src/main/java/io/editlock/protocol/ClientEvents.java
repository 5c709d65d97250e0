package io.editlock.protocol;

import java.util.Set;

/** The names of the client events (docs/protocol.md §4), declared once. */
public final class ClientEvents {

    public static final String LOCK_CONFIGURATOR = "lock-configurator";
    public static final String LOCK_VARIABLES = "lock-variables";
    public static final String LOCK_ITEM_SUBRESOURCE = "lock-item-subresource";
    public static final String UNLOCK_CONFIGURATOR = "unlock-configurator";
    public static final String UNLOCK_VARIABLES = "unlock-variables";
    public static final String UNLOCK_ITEM_SUBRESOURCE = "unlock-item-subresource";
    public static final String WATCH = "watch";
    public static final String UNWATCH = "unwatch";
    public static final String TOUCH = "touch";
    public static final String RESUME = "resume";
    public static final String REQUEST_TAKEOVER = "request-takeover";
    public static final String ANSWER_TAKEOVER = "answer-takeover";
    public static final String WAIT_FOR = "wait-for";
    public static final String STOP_WAITING = "stop-waiting";
    public static final String REAUTH = "reauth";

    public static final Set<String> ALL = Set.of(
            LOCK_CONFIGURATOR,
            LOCK_VARIABLES,
            LOCK_ITEM_SUBRESOURCE,
            UNLOCK_CONFIGURATOR,
            UNLOCK_VARIABLES,
            UNLOCK_ITEM_SUBRESOURCE,
            WATCH,
            UNWATCH,
            TOUCH,
            RESUME,
            REQUEST_TAKEOVER,
            ANSWER_TAKEOVER,
            WAIT_FOR,
            STOP_WAITING,
            REAUTH);

    private ClientEvents() {}
}
