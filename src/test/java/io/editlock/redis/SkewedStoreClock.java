package io.editlock.redis;

/** A store clock of a node whose own clock is off by some milliseconds, for tests outside this package. */
public final class SkewedStoreClock {

    private SkewedStoreClock() {}

    /** @return the clock, not read yet: it counts on the node's own (skewed) clock until its first {@link StoreClock#read} */
    public static StoreClock of(PipelinedRedis redis, long offMillis) {
        return new StoreClock(redis, () -> System.currentTimeMillis() + offMillis);
    }
}
