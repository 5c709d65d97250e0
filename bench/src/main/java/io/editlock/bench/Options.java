package io.editlock.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} arguments of one sub-command. */
final class Options {

    private final Map<String, String> values = new HashMap<>();

    static Options parse(String[] args, int from) {
        Options options = new Options();
        for (int i = from; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("expected --name value, got " + arg);
            }
            String name = arg.substring(2);
            int eq = name.indexOf('=');
            if (eq >= 0) {
                options.values.put(name.substring(0, eq), name.substring(eq + 1));
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                options.values.put(name, args[++i]);
            } else {
                options.values.put(name, "true");
            }
        }
        return options;
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    String require(String name) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    int getInt(String name, int fallback) {
        return values.containsKey(name) ? Integer.parseInt(values.get(name).trim()) : fallback;
    }

    long getLong(String name, long fallback) {
        return values.containsKey(name) ? Long.parseLong(values.get(name).trim()) : fallback;
    }

    /** Comma- or space-separated integers. */
    List<Integer> getInts(String name, String fallback) {
        List<Integer> list = new ArrayList<>();
        for (String part : get(name, fallback).split("[,\\s]+")) {
            if (!part.isBlank()) {
                list.add(Integer.parseInt(part.trim()));
            }
        }
        return list;
    }

    /** Comma-separated strings. */
    List<String> getList(String name) {
        List<String> list = new ArrayList<>();
        for (String part : require(name).split(",")) {
            if (!part.isBlank()) {
                list.add(part.trim());
            }
        }
        return list;
    }
}
