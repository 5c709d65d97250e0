package io.editlock.catalog;

/** No configurator, item or entry with that id (HTTP 404). */
public class UnknownIdException extends RuntimeException {

    public UnknownIdException(String message) {
        super(message);
    }

    public static UnknownIdException of(Entity entity, Object id) {
        return new UnknownIdException("No " + entity.wireName() + " " + id);
    }
}
