package io.editlock.catalog;

/** A request that is not valid: a missing or mistyped field, a blank name, a bad reference (HTTP 400). */
public class InvalidInputException extends RuntimeException {

    public InvalidInputException(String message) {
        super(message);
    }
}
