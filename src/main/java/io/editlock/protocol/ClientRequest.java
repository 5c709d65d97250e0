package io.editlock.protocol;

import io.editlock.lock.Resource;

/** The client events of docs/protocol.md §4, decoded and valid. {@code ref} is null when the client sent none. */
public sealed interface ClientRequest {

    String ref();

    record Lock(String ref, Resource resource) implements ClientRequest {}

    record Unlock(String ref, Resource resource) implements ClientRequest {}

    record Watch(String ref, long configuratorId) implements ClientRequest {}

    record Unwatch(String ref, long configuratorId) implements ClientRequest {}

    record Touch(String ref) implements ClientRequest {}

    record Resume(String ref, String resumeToken) implements ClientRequest {}

    /** {@code wait-for} (docs/protocol.md §14). */
    record WaitFor(String ref, Resource resource) implements ClientRequest {}

    /** {@code stop-waiting} (docs/protocol.md §14). */
    record StopWaiting(String ref, Resource resource) implements ClientRequest {}

    /** {@code request-takeover} (docs/protocol.md §13); {@code message} null when none was given. */
    record RequestTakeover(String ref, Resource resource, String message) implements ClientRequest {}

    /**
     * {@code answer-takeover} (docs/protocol.md §13); {@code byUserId} the asker answered, null when the client
     * named none (then the answer is to whichever request stands).
     */
    record AnswerTakeover(String ref, Resource resource, boolean accept, String byUserId) implements ClientRequest {}

    /** A fresh token for the open socket (docs/protocol.md §3); never logged, never echoed. */
    record Reauth(String ref, String accessToken) implements ClientRequest {

        @Override
        public String toString() {
            return "Reauth[ref=" + ref + "]";
        }
    }

    /** Not a valid request: answered with {@code error BAD_REQUEST}; ref only when the ref itself was valid. */
    record Invalid(String ref, String message) implements ClientRequest {}
}
