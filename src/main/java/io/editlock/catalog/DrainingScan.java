package io.editlock.catalog;

import io.editlock.lock.LockStoreUnavailableException;
import io.editlock.redis.PipelinedRedis;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Empties a hash or a set in batches, a batch at a time, each a few short commands: a cursor of
 * HSCAN or SSCAN that goes on while each batch's finds are removed still sees every member that was
 * there all along, so no single command costs the size of the key.
 */
final class DrainingScan {

    private DrainingScan() {}

    /**
     * @param scan {@code HSCAN} (its finds come as field, value, …: the fields are handed on) or
     *     {@code SSCAN}
     * @param batch takes one batch's members out (of the key, and wherever else they stand); its count
     * @return how many members the batches took out
     */
    static Uni<Long> drain(
            PipelinedRedis redis, Command scan, String key, int count, Function<List<String>, Uni<Integer>> batch) {
        int stride = scan == Command.HSCAN ? 2 : 1;
        AtomicReference<String> cursor = new AtomicReference<>("0");
        AtomicLong taken = new AtomicLong();
        return Multi.createBy()
                .repeating()
                .uni(() -> redis.execute(scan, key, cursor.get(), "COUNT", String.valueOf(count))
                        .onFailure()
                        .transform(LockStoreUnavailableException::of)
                        .flatMap(page -> {
                            cursor.set(page.get(0).toString());
                            Response found = page.get(1);
                            List<String> members = new ArrayList<>();
                            for (int i = 0; i < found.size(); i += stride) {
                                members.add(found.get(i).toString());
                            }
                            return members.isEmpty()
                                    ? Uni.createFrom().item(0)
                                    : batch.apply(members).invoke(taken::addAndGet);
                        }))
                .whilst(done -> !cursor.get().equals("0"))
                .collect()
                .last()
                .map(last -> taken.get());
    }
}
