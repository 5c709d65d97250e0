/**
 * How the server talks to Redis, in three ways, each for one thing:
 * <ul>
 * <li>{@link io.editlock.redis.ScriptExecutor} runs every Lua script (by EVALSHA, with EVAL when
 * Redis forgot it) and preloads them all at readiness. Every script is one of
 * {@link io.editlock.redis.Scripts}, with the libraries of {@link io.editlock.redis.LuaLibrary} it
 * uses; every decision about locks, lines and catalog writes is one script run.</li>
 * <li>{@link io.editlock.redis.PipelinedRedis} sends every other command (indexes, presence, resume
 * records, schedules), pipelined on one connection per event loop, each bounded by the timeout.
 * Scripts run through it too.</li>
 * <li>Quarkus's {@code ReactiveRedisDataSource} only for pub/sub subscriptions (the event relays,
 * presence), which need a connection of their own; each is a {@link io.editlock.redis.LastingSubscription},
 * which subscribes again when its connection ends and lets its owner make up for what it missed. Each
 * holds one of the client's pooled connections: {@link io.editlock.redis.RedisPoolSize} stops a start
 * whose pool has no room for them.</li>
 * </ul>
 * {@link io.editlock.redis.LockKeys} names every key and hash tag.
 */
package io.editlock.redis;
