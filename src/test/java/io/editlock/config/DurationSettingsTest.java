package io.editlock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hibernate.validator.constraints.time.DurationMax;
import org.junit.jupiter.api.Test;

/**
 * Every duration setting has a longest value that a node refuses to start beyond: a duration is turned
 * into nanoseconds and added to clocks, and one of a few hundred years, meant as "never", would
 * overflow in a timer after the start instead (the socket sweep, and with it token ends and pings).
 */
class DurationSettingsTest {

    private static final String UNBOUNDED = " (unbounded)";

    @Test
    void everyDurationSettingHasALongestValue() {
        List<String> durations = new ArrayList<>();
        collect(EditlockConfig.class, "editlock", durations);
        assertTrue(durations.size() >= 19, "the duration settings found: " + durations);
        assertEquals(
                List.of(),
                durations.stream()
                        .filter(setting -> setting.endsWith(UNBOUNDED))
                        .toList(),
                "settings without a @DurationMax of at most " + EditlockConfig.LONGEST_DAYS + " days");
    }

    private static void collect(Class<?> group, String prefix, List<String> durations) {
        for (Method setting : group.getDeclaredMethods()) {
            if (setting.isSynthetic() || setting.isDefault()) {
                continue;
            }
            String name = prefix + "." + setting.getName();
            AnnotatedType type = setting.getAnnotatedReturnType();
            if (setting.getReturnType() == Duration.class) {
                durations.add(name + (bounded(setting.getAnnotation(DurationMax.class)) ? "" : UNBOUNDED));
            } else if (setting.getReturnType() == Optional.class
                    && type instanceof AnnotatedParameterizedType optional
                    && optional.getAnnotatedActualTypeArguments()[0].getType() == Duration.class) {
                DurationMax max = optional.getAnnotatedActualTypeArguments()[0].getAnnotation(DurationMax.class);
                durations.add(name + (bounded(max) ? "" : UNBOUNDED));
            } else if (setting.getReturnType().isInterface()
                    && setting.getReturnType().getEnclosingClass() == EditlockConfig.class) {
                collect(setting.getReturnType(), name, durations);
            }
        }
    }

    private static boolean bounded(DurationMax max) {
        return max != null
                && Duration.ofDays(max.days()).compareTo(Duration.ofDays(EditlockConfig.LONGEST_DAYS)) <= 0
                && max.hours() == 0
                && max.minutes() == 0
                && max.seconds() == 0;
    }
}
