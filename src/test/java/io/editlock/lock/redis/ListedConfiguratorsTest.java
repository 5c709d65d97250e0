package io.editlock.lock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** When a renewal may take a configurator off a socket's index, and what a request meanwhile waits for. */
class ListedConfiguratorsTest {

    private static final long C = 7;
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final ListedConfigurators listing = new ListedConfigurators();
    private final AtomicInteger removals = new AtomicInteger();

    /** Counts its runs, not its builds. */
    private Uni<Void> removal() {
        return Uni.createFrom().item(() -> {
            removals.incrementAndGet();
            return null;
        });
    }

    @Test
    void aConfiguratorNoRequestTouchedSinceTheMarkComesOff() {
        listing.begin(C);
        listing.written(C);
        listing.end(C);
        long mark = listing.mark();

        Uni<Void> removal = listing.takeOff(C, mark, this::removal);

        assertNotNull(removal);
        removal.await().atMost(WAIT);
        assertEquals(1, removals.get());
        assertEquals(Set.of(), listing.all());
        ListedConfigurators.Begun next = listing.begin(C);
        assertTrue(next.write(), "the next request lists it again");
        assertNull(next.removal(), "after the removal has ended, nothing to wait for");
    }

    @Test
    void aRequestStillRunningKeepsItListed() {
        listing.begin(C);
        listing.written(C);
        long mark = listing.mark();

        assertNull(listing.takeOff(C, mark, this::removal));
        assertEquals(0, removals.get());
        assertEquals(Set.of(C), listing.written());
    }

    @Test
    void aRequestRunningAtTheMarkThatHasEndedSinceKeepsItListed() {
        listing.begin(C);
        listing.written(C);
        long mark = listing.mark();
        listing.end(C);

        assertNull(listing.takeOff(C, mark, this::removal), "its script may have run after the renewal looked");
        assertEquals(Set.of(C), listing.written());
    }

    @Test
    void aRequestThatBeganAndEndedAfterTheMarkKeepsItListed() {
        long mark = listing.mark();
        listing.begin(C);
        listing.written(C);
        listing.end(C);

        assertNull(listing.takeOff(C, mark, this::removal));
        assertEquals(Set.of(C), listing.written());
    }

    @Test
    void aRequestElsewhereDoesNotKeepItListed() {
        listing.begin(C);
        listing.written(C);
        listing.end(C);
        long mark = listing.mark();
        listing.begin(C + 1);

        assertNotNull(listing.takeOff(C, mark, this::removal));
    }

    @Test
    void aRequestThatComesDuringTheRemovalWritesOnlyAfterIt() {
        listing.begin(C);
        listing.written(C);
        listing.end(C);
        AtomicReference<UniEmitter<? super Void>> pending = new AtomicReference<>();
        Uni<Void> removal =
                listing.takeOff(C, listing.mark(), () -> Uni.createFrom().<Void>emitter(pending::set));
        assertNotNull(removal);
        removal.subscribe().with(done -> {}, failure -> {});

        ListedConfigurators.Begun during = listing.begin(C);

        assertTrue(during.write());
        assertNotNull(during.removal(), "the request waits for the removal");
        AtomicReference<Boolean> written = new AtomicReference<>(false);
        during.removal().subscribe().with(done -> written.set(true));
        assertFalse(written.get(), "not before the removal has ended");
        pending.get().complete(null);
        assertTrue(written.get());
        listing.end(C);
        ListedConfigurators.Begun after = listing.begin(C);
        assertNull(after.removal());
    }

    @Test
    void aRemovalIsRunOnceWhoeverWaitsForIt() {
        listing.begin(C);
        listing.end(C);
        AtomicReference<UniEmitter<? super Void>> pending = new AtomicReference<>();
        Uni<Void> removal = listing.takeOff(
                C,
                listing.mark(),
                () -> Uni.createFrom().<Void>emitter(emitter -> {
                    removals.incrementAndGet();
                    pending.set(emitter);
                }));
        Uni<Void> awaited = listing.begin(C).removal();
        assertNotNull(awaited);

        pending.get().complete(null);
        removal.await().atMost(WAIT);
        awaited.await().atMost(WAIT);

        assertEquals(1, removals.get());
        listing.end(C);
        assertNull(listing.begin(C).removal());
    }

    @Test
    void aRequestWaitsForTheRemovalEvenWhenTheRenewalStoppedWaitingForIt() {
        listing.begin(C);
        listing.end(C);
        AtomicReference<UniEmitter<? super Void>> pending = new AtomicReference<>();
        Uni<Void> removal =
                listing.takeOff(C, listing.mark(), () -> Uni.createFrom().<Void>emitter(pending::set));
        removal.subscribe().with(done -> {}, failure -> {}).cancel(); // the renewal timed out

        assertNotNull(listing.begin(C).removal(), "the removal is still on its way to the store");
        pending.get().complete(null);
        listing.end(C);
        assertNull(listing.begin(C).removal());
    }

    @Test
    void aSecondRenewalThatFindsNothingJoinsTheRemovalUnderWay() {
        listing.begin(C);
        listing.end(C);
        AtomicReference<UniEmitter<? super Void>> pending = new AtomicReference<>();
        Uni<Void> first =
                listing.takeOff(C, listing.mark(), () -> Uni.createFrom().<Void>emitter(pending::set));
        first.subscribe().with(done -> {}, failure -> {});

        Uni<Void> second = listing.takeOff(C, listing.mark(), this::removal);

        assertNotNull(second);
        assertEquals(0, removals.get(), "one removal, not two side by side");
        AtomicReference<Boolean> ended = new AtomicReference<>(false);
        second.subscribe().with(done -> ended.set(true));
        assertFalse(ended.get());
        pending.get().complete(null);
        assertTrue(ended.get(), "the second renewal waits for the first removal");
    }

    @Test
    void aRemovalThatFailsAtOnceEndsAndKeepsNoRequestWaiting() {
        listing.begin(C);
        listing.end(C);
        Uni<Void> removal = listing.takeOff(C, listing.mark(), () -> {
            throw new IllegalStateException("no connection");
        });

        assertNotNull(removal);
        removal.onFailure().recoverWithNull().await().atMost(WAIT); // it ends, failed
        assertNull(listing.begin(C).removal(), "nobody waits for a removal that ended");
    }
}
