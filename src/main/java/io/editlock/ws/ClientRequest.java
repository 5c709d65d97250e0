package io.editlock.ws;

import io.editlock.lock.Resource;

/** The client events of docs/protocol.md §4, decoded and valid. {@code ref} is null when the client sent none. */
public sealed interface ClientRequest {

    String ref();

    record Lock(String ref, Resource resource) implements ClientRequest {
    }

    record Unlock(String ref, Resource resource) implements ClientRequest {
    }

    record Watch(String ref, long configuratorId) implements ClientRequest {
    }

    record Unwatch(String ref, long configuratorId) implements ClientRequest {
    }

    record Touch(String ref) implements ClientRequest {
    }

    record Resume(String ref, String resumeToken) implements ClientRequest {
    }

    /** A fresh token for the open socket (docs/protocol.md §3); never logged, never echoed. */
    record Reauth(String ref, String accessToken) implements ClientRequest {

        @Override
        public String toString() {
            return "Reauth[ref=" + ref + "]";
        }
    }

    /** Not a valid request: answered with {@code error BAD_REQUEST}; ref only when the ref itself was valid. */
    record Invalid(String ref, String message) implements ClientRequest {
    }
}
