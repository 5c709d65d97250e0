package io.editlock.bench;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Contention: every socket (each its own user) asks for the same configurator at once, round after
 * round. A round must have exactly one winner (lock-acquired) and LOCKED for everyone else; the
 * figure is the time from the first request sent to the last answer received. The winner unlocks
 * before the next round.
 */
final class Contention {

    private Contention() {}

    record Fixture(List<Users.User> users, long configuratorId) {
        static Fixture create(Api api, int users) {
            List<Users.User> list = Users.login(api, "race", users);
            long configurator =
                    Parallel.await(api.createConfigurator(list.get(0).token(), "contended"), 60);
            return new Fixture(list, configurator);
        }
    }

    static Map<String, Object> run(
            Net net, URI target, Fixture fixture, int rounds, int connectConcurrency, Map<String, String> notes) {
        Counters counters = new Counters();
        List<Sock> socks = net.connect(List.of(target), "/locking", fixture.users(), 0, connectConcurrency, counters);
        String data = "{\"configuratorId\":" + fixture.configuratorId() + "}";
        Histogram allAnswered = Results.histogram();
        int oneWinner = 0;
        List<String> badRounds = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            CountDownLatch answered = new CountDownLatch(socks.size());
            AtomicLong firstSent = new AtomicLong(Long.MAX_VALUE);
            AtomicLong lastReceived = new AtomicLong(Long.MIN_VALUE);
            AtomicInteger winners = new AtomicInteger();
            List<Sock> winning = Collections.synchronizedList(new ArrayList<>());
            for (Sock sock : socks) {
                sock.onContext(() -> sock.send("lock-configurator", data, (frame, sent, received) -> {
                    firstSent.accumulateAndGet(sent, Math::min);
                    lastReceived.accumulateAndGet(received, Math::max);
                    if ("lock-acquired".equals(frame.event())) {
                        winners.incrementAndGet();
                        winning.add(sock);
                    } else if (!("lock-failed".equals(frame.event()) && "LOCKED".equals(frame.code()))) {
                        counters.error(frame.event() + (frame.code() == null ? "" : ":" + frame.code()));
                    }
                    answered.countDown();
                }));
            }
            try {
                if (!answered.await(120, TimeUnit.SECONDS)) {
                    counters.error("ROUND_TIMEOUT");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            Results.record(allAnswered, lastReceived.get() - firstSent.get());
            if (winners.get() == 1) {
                oneWinner++;
            } else {
                badRounds.add("round " + round + ": " + winners.get() + " winners");
            }
            for (Sock winner : new ArrayList<>(winning)) {
                Sizes.request(winner, "unlock-configurator", data, "lock-released", counters);
            }
        }
        net.closeAll(socks);
        Map<String, Object> metrics = Results.metrics();
        metrics.put("rounds", (long) rounds);
        metrics.put("one_winner", (long) oneWinner);
        metrics.put("not_one_winner", (long) (rounds - oneWinner));
        metrics.put("all_answered_p50_ms", Results.ms(allAnswered, 50));
        metrics.put("all_answered_p99_ms", Results.ms(allAnswered, 99));
        metrics.put("all_answered_max_ms", Results.maxMs(allAnswered));
        metrics.put("errors", counters.errors.sum());
        metrics.put("closed", counters.unexpectedCloses.sum());
        metrics.put("sockets", (long) socks.size());
        notes.put("bad_rounds", String.join("; ", badRounds));
        notes.put("errors", counters.errorCodes());
        return metrics;
    }
}
