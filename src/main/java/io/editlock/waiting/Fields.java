package io.editlock.waiting;

import io.editlock.lock.Page;
import io.editlock.lock.Resource;

/** The resource a lock field of a configurator names ({@code cfg}, {@code var}, {@code i:<item>:<page>}, see lua/locks_lib.lua). */
final class Fields {

    private Fields() {}

    static Resource resource(long configuratorId, String field) {
        if (field.equals("cfg")) {
            return Resource.configurator(configuratorId);
        }
        if (field.equals("var")) {
            return Resource.variables(configuratorId);
        }
        String[] parts = field.split(":", 3);
        return Resource.itemPage(
                        Long.parseLong(parts[1]), Page.fromWire(parts[2]).orElseThrow())
                .inConfigurator(configuratorId);
    }
}
