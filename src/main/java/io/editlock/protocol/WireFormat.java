package io.editlock.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.lock.Lock;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.ReleasedLock;
import io.editlock.lock.Resource;
import java.util.Collection;

/** The JSON shapes a client sees (docs/protocol.md §4): frames, {@code Resource} and {@code Lock}. */
public final class WireFormat {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private WireFormat() {}

    public static ObjectNode object() {
        return NODES.objectNode();
    }

    /** {@code {"event": ..., "data": ..., "ref": ...}}; no ref for broadcasts. */
    public static String frame(String event, ObjectNode data, String ref) {
        ObjectNode frame = NODES.objectNode();
        frame.put("event", event);
        frame.set("data", data);
        if (ref != null) {
            frame.put("ref", ref);
        }
        try {
            return JSON.writeValueAsString(frame);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first frame of every socket: {socketId, userId, userName, resumeToken}. */
    public static String welcome(String socketId, String userId, String userName, String resumeToken) {
        ObjectNode data = object().put("socketId", socketId)
                .put("userId", userId)
                .put("userName", userName)
                .put("resumeToken", resumeToken);
        return frame(ServerEvents.WELCOME, data, null);
    }

    public static ObjectNode resource(Resource resource) {
        ObjectNode node = NODES.objectNode();
        node.put("type", resource.type().wireName());
        if (resource.configuratorId() != null) {
            node.put("configuratorId", resource.configuratorId());
        }
        if (resource.itemId() != null) {
            node.put("itemId", resource.itemId());
            node.put("page", resource.page().wireName());
        }
        return node;
    }

    /** @param withToken only in the holder's own lock-acquired and resumed */
    public static ObjectNode lock(Lock lock, boolean withToken) {
        ObjectNode node = NODES.objectNode();
        node.set("resource", resource(lock.resource()));
        node.put("ownerUserId", lock.ownerUserId());
        node.put("ownerUserName", lock.ownerUserName());
        node.put("acquiredAt", lock.acquiredAt().toString());
        node.put("expiresAt", lock.expiresAt().toString());
        if (withToken) {
            node.put("token", lock.token());
        }
        return node;
    }

    public static ArrayNode locks(Collection<Lock> locks, boolean withToken) {
        ArrayNode array = NODES.arrayNode();
        locks.forEach(lock -> array.add(lock(lock, withToken)));
        return array;
    }

    public static ArrayNode resources(Collection<Resource> resources) {
        ArrayNode array = NODES.arrayNode();
        resources.forEach(resource -> array.add(resource(resource)));
        return array;
    }

    /** {@code lock-released} data: {resource, reason, ownerUserId, ownerUserName}. */
    public static ObjectNode released(ReleasedLock released) {
        ObjectNode data = NODES.objectNode();
        data.set("resource", resource(released.lock().resource()));
        data.put("reason", released.reason().wireName());
        data.put("ownerUserId", released.lock().ownerUserId());
        data.put("ownerUserName", released.lock().ownerUserName());
        return data;
    }

    /** A {@code lock-lost} frame. */
    public static String lockLost(Resource resource, ReleaseReason reason) {
        return frame(ServerEvents.LOCK_LOST, lost(resource, reason), null);
    }

    /** {@code lock-lost} data: {resource, reason}. */
    public static ObjectNode lost(Resource resource, ReleaseReason reason) {
        ObjectNode data = NODES.objectNode();
        data.set("resource", resource(resource));
        data.put("reason", reason.wireName());
        return data;
    }

    /** The data of a refusal that names no holder: {@code {resource, code, message}}. */
    public static ObjectNode refusal(Resource resource, ErrorCode code, String message) {
        ObjectNode data = NODES.objectNode();
        data.set("resource", resource(resource));
        data.put("code", code.wire());
        data.put("message", message);
        return data;
    }

    /**
     * {@code lock-failed} data of a lock refused by another user's ({@code LOCKED}): {resource, code,
     * message, lockedBy, lockedByUserId, blocking}; {@code resource} is what was asked for.
     */
    public static ObjectNode lockedBy(Resource requested, Lock blocking) {
        ObjectNode data = NODES.objectNode();
        data.set("resource", resource(requested));
        data.put("code", ErrorCode.LOCKED.wire());
        data.put("message", Messages.currentlyEditedBy(blocking.ownerUserName()));
        data.put("lockedBy", blocking.ownerUserName());
        data.put("lockedByUserId", blocking.ownerUserId());
        data.set("blocking", lock(blocking, false));
        return data;
    }

    public static ObjectNode error(String code, String message) {
        ObjectNode data = NODES.objectNode();
        data.put("code", code);
        data.put("message", message);
        return data;
    }
}
