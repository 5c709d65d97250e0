package io.editlock.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * One JSON line per scenario, configuration and run, appended to {@code --out}:
 * {@code {"scenario":..,"key":..,"run":..,"metrics":{..},"notes":{..}}}. The report takes the median,
 * min and max of every metric over the runs of one scenario and key.
 */
final class Results {

    static final ObjectMapper JSON = new ObjectMapper();

    private final Path out;

    Results(Path out) {
        this.out = out;
    }

    void emit(String scenario, String key, int run, Map<String, ?> metrics, Map<String, String> notes) {
        ObjectNode line = JSON.createObjectNode();
        line.put("scenario", scenario);
        line.put("key", key);
        line.put("run", run);
        line.set("metrics", JSON.valueToTree(metrics));
        line.set("notes", JSON.valueToTree(notes));
        try {
            Files.writeString(
                    out,
                    JSON.writeValueAsString(line) + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder shown = new StringBuilder(String.format("  %-11s %-26s run %d:", scenario, key, run));
        metrics.forEach(
                (name, value) -> shown.append(' ').append(name).append('=').append(format(value)));
        notes.forEach((name, value) -> {
            if (!value.isEmpty()) {
                shown.append(' ').append(name).append('=').append(value);
            }
        });
        System.out.println(shown);
    }

    private static String format(Object value) {
        if (value instanceof Double d) {
            return d >= 100 ? String.format("%.0f", d) : String.format("%.3f", d);
        }
        return String.valueOf(value);
    }

    static Map<String, Object> metrics() {
        return new LinkedHashMap<>();
    }

    static Map<String, String> notes() {
        return new LinkedHashMap<>();
    }

    /** Latencies in microseconds, recorded from any thread. */
    static Histogram histogram() {
        return new ConcurrentHistogram(3);
    }

    static void record(Histogram histogram, long nanos) {
        histogram.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(nanos)));
    }

    /** Percentile of a microsecond histogram, in milliseconds (0 when empty). */
    static double ms(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0.0 : histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    static double maxMs(Histogram histogram) {
        return histogram.getTotalCount() == 0 ? 0.0 : histogram.getMaxValue() / 1000.0;
    }
}
