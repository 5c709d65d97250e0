package io.editlock.session;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A step run for every configurator watched on this node once the store lost data (a socket that locks,
 * waits or asks in a configurator watches it), each retried a few times: Redis may still be loading its
 * data right after it came back.
 */
public final class WatchedAfterLoss {

    private WatchedAfterLoss() {}

    /** @return how many configurators it ran for, and the sum of what the steps counted */
    public static Uni<Counted> forEach(SessionRegistry registry, Function<Long, Uni<Integer>> step) {
        List<Long> watched = List.copyOf(registry.watchedConfigurators());
        return Multi.createFrom()
                .iterable(watched)
                .onItem()
                .transformToUniAndMerge(configuratorId -> step.apply(configuratorId)
                        .onFailure()
                        .retry()
                        .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2))
                        .atMost(5))
                .collect()
                .asList()
                .map(counts -> new Counted(
                        watched.size(),
                        counts.stream().mapToInt(Integer::intValue).sum()));
    }

    /** @param configurators how many watched configurators the step ran for; @param total what the steps counted */
    public record Counted(int configurators, int total) {}
}
