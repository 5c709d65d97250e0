package io.editlock.catalog;

/** The caller may not do this to that entity, whatever the locks say (REST 403). */
public class ForbiddenException extends RuntimeException {

    public ForbiddenException(String message) {
        super(message, null, false, false);
    }
}
