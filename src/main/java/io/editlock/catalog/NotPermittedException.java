package io.editlock.catalog;

/** The caller may not do this to that entity, whatever the locks say (REST 403). */
public class NotPermittedException extends RuntimeException {

    public NotPermittedException(String message) {
        super(message, null, false, false);
    }
}
