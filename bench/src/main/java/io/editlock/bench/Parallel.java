package io.editlock.bench;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/** Runs asynchronous calls from the main thread with a bounded number in flight, and waits for all. */
final class Parallel {

    private Parallel() {}

    static <T> List<T> map(int count, int concurrency, IntFunction<Future<T>> call) {
        Semaphore slots = new Semaphore(concurrency);
        List<CompletableFuture<T>> futures = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            slots.acquireUninterruptibly();
            Future<T> future = call.apply(i);
            future.onComplete(ignored -> slots.release());
            futures.add(future.toCompletionStage().toCompletableFuture());
        }
        List<T> results = new ArrayList<>(count);
        for (CompletableFuture<T> future : futures) {
            results.add(await(future, 300));
        }
        return results;
    }

    static <T> T await(Future<T> future, long seconds) {
        return await(future.toCompletionStage().toCompletableFuture(), seconds);
    }

    static <T> T await(CompletableFuture<T> future, long seconds) {
        try {
            return future.get(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e.getCause() != null ? e.getCause().getMessage() : e.toString(), e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
