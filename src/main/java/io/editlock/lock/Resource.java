package io.editlock.lock;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A lockable page: a configurator, its variables, or one sub-page of an item. An item's
 * configurator is resolved by the server, so {@code configuratorId} may be unknown (null) for an
 * item page a client named.
 */
public record Resource(ResourceType type, Long configuratorId, Long itemId, Page page) {

    /** Ids are positive integers below 2^53 (they travel as JSON numbers). */
    public static final long MAX_ID = (1L << 53) - 1;

    private static final Pattern CANONICAL =
            Pattern.compile("configurator:(\\d{1,16})|configurator:(\\d{1,16}):variables|item:(\\d{1,16}):([a-z]+)");

    public static Resource configurator(long configuratorId) {
        return new Resource(ResourceType.CONFIGURATOR, configuratorId, null, null);
    }

    public static Resource variables(long configuratorId) {
        return new Resource(ResourceType.VARIABLES, configuratorId, null, null);
    }

    public static Resource itemPage(long itemId, Page page) {
        return new Resource(ResourceType.ITEM_SUBRESOURCE, null, itemId, page);
    }

    public Resource inConfigurator(long id) {
        return new Resource(type, id, itemId, page);
    }

    public static boolean isValidId(long id) {
        return id > 0 && id <= MAX_ID;
    }

    /** The field of this lock in its configurator's locks hash (see lua/locks_lib.lua). */
    public String field() {
        return switch (type) {
            case CONFIGURATOR -> "cfg";
            case VARIABLES -> "var";
            case ITEM_SUBRESOURCE -> "i:" + itemId + ":" + page.wireName();
        };
    }

    /** {@code configurator:12}, {@code configurator:12:variables}, {@code item:5:filters}. */
    public String canonical() {
        return switch (type) {
            case CONFIGURATOR -> "configurator:" + configuratorId;
            case VARIABLES -> "configurator:" + configuratorId + ":variables";
            case ITEM_SUBRESOURCE -> "item:" + itemId + ":" + page.wireName();
        };
    }

    public static Optional<Resource> parseCanonical(String text) {
        Matcher m = CANONICAL.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            if (m.group(1) != null) {
                return validId(Long.parseLong(m.group(1))).map(Resource::configurator);
            }
            if (m.group(2) != null) {
                return validId(Long.parseLong(m.group(2))).map(Resource::variables);
            }
            Optional<Page> page = Page.fromWire(m.group(4));
            return page.flatMap(p -> validId(Long.parseLong(m.group(3))).map(id -> itemPage(id, p)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> validId(long id) {
        return isValidId(id) ? Optional.of(id) : Optional.empty();
    }

    @Override
    public String toString() {
        return canonical();
    }
}
