package io.editlock.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Errors and unexpected closes of one run, counted from every event loop. */
final class Counters {

    final LongAdder errors = new LongAdder();
    final LongAdder unexpectedCloses = new LongAdder();
    final LongAdder connectFailures = new LongAdder();
    final LongAdder strayReplies = new LongAdder();
    private final Map<String, LongAdder> errorsByCode = new ConcurrentHashMap<>();

    /** An answer that is not the expected one: lock-failed, error, a timeout, a reply with a wrong ref. */
    void error(String code) {
        errors.increment();
        errorsByCode
                .computeIfAbsent(code == null ? "?" : code, k -> new LongAdder())
                .increment();
    }

    String errorCodes() {
        Map<String, Long> sorted = new TreeMap<>();
        errorsByCode.forEach((code, count) -> sorted.put(code, count.sum()));
        return sorted.isEmpty() ? "" : sorted.toString();
    }
}
