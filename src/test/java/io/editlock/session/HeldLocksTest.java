package io.editlock.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.editlock.lock.Lock;
import io.editlock.lock.Page;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
import io.editlock.lock.ToldGrants;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a socket's client was told it holds, grant by grant (by fencing token). */
class HeldLocksTest {

    private static final Resource FILTERS = Resource.itemPage(5, Page.FILTERS).inConfigurator(1);
    private static final Resource VARIABLES = Resource.variables(1);

    private final HeldLocks held = new HeldLocks();

    @Test
    void anUnlocksReleaseHeardBeforeItsUnavailableReplyIsToldAfterTheReply() {
        held.granted(grant(VARIABLES, 7));
        List<String> told = new ArrayList<>();
        held.unlockAsked(VARIABLES);
        held.endedByItsUnlock(VARIABLES, 7, () -> told.add("lost"));
        assertEquals(List.of(), told, "the reply is still to come");
        held.unlockUnavailable(VARIABLES, () -> told.add("reply"), page -> told.add("lost " + page));
        assertEquals(List.of("reply", "lost " + VARIABLES), told);
    }

    @Test
    void anUnlocksReleaseHeardAfterItsUnavailableReplyIsToldWhenHeard() {
        held.granted(grant(VARIABLES, 7));
        List<String> told = new ArrayList<>();
        held.unlockAsked(VARIABLES);
        held.unlockUnavailable(VARIABLES, () -> told.add("reply"), page -> told.add("lost at once"));
        held.endedByItsUnlock(VARIABLES, 7, () -> told.add("lost"));
        assertEquals(List.of("reply", "lost"), told);
        held.endedByItsUnlock(VARIABLES, 7, () -> told.add("again"));
        assertEquals(List.of("reply", "lost"), told, "told once");
    }

    @Test
    void anUnlocksReleaseIsToldByItsReplyWhenTheReplyIsNotUnavailable() {
        held.granted(grant(VARIABLES, 7));
        List<String> told = new ArrayList<>();
        held.unlockAsked(VARIABLES);
        held.endedByItsUnlock(VARIABLES, 7, () -> told.add("lost"));
        held.ended(VARIABLES);
        held.endedByItsUnlock(VARIABLES, 7, () -> told.add("lost"));
        held.unlockAsked(FILTERS);
        held.unlockAnswered(FILTERS);
        held.endedByItsUnlock(FILTERS, 8, () -> told.add("lost"));
        assertEquals(List.of(), told);
    }

    @Test
    void theEndOfAnOlderGrantDoesNotTakeANewerGrantOfTheSamePage() {
        held.granted(grant(FILTERS, 10));
        held.granted(grant(FILTERS, 11));
        held.ended(FILTERS, 10, ReleaseReason.ADMIN);
        assertEquals(List.of(11L), tokens(held.toldBefore(System.nanoTime() + 1)));
        held.ended(FILTERS, 11, ReleaseReason.ADMIN);
        assertTrue(held.toldBefore(System.nanoTime() + 1).isEmpty());
    }

    @Test
    void aReentryIsTheGrantToldBefore() {
        held.granted(grant(VARIABLES, 7));
        long between = System.nanoTime();
        held.granted(grant(VARIABLES, 7));
        assertEquals(List.of(7L), tokens(held.toldBefore(between)), "told when it was first granted");
    }

    @Test
    void onlyGrantsToldBeforeTheGivenMomentAreListed() {
        held.granted(grant(VARIABLES, 7));
        long between = System.nanoTime();
        held.granted(grant(FILTERS, 8));
        assertEquals(List.of(7L), tokens(held.toldBefore(between)));
    }

    @Test
    void theGrantsOfAConfiguratorAreThoseStillBelievedHeldThere() {
        Resource elsewhere = Resource.variables(2);
        held.granted(grant(FILTERS, 8));
        held.granted(grant(VARIABLES, 7));
        held.granted(grant(elsewhere, 30));
        held.ended(FILTERS, 8, ReleaseReason.ADMIN);
        assertEquals(Map.of(VARIABLES, 7L), held.in(1));
        assertEquals(Map.of(elsewhere, 30L), held.in(2));
        assertEquals(Map.of(), held.in(3));
    }

    @Test
    void aGrantIsGoneSinceTheFirstOfTheRenewalsInARowThatFoundItGone() {
        held.granted(grant(VARIABLES, 7));
        held.granted(grant(FILTERS, 8));
        assertEquals(Map.of(VARIABLES, 100L), held.goneSince(1, Map.of(VARIABLES, 7L), 100));
        assertEquals(
                Map.of(VARIABLES, 100L, FILTERS, 200L), held.goneSince(1, Map.of(VARIABLES, 7L, FILTERS, 8L), 200));
        assertEquals(Map.of(FILTERS, 200L), held.goneSince(1, Map.of(FILTERS, 8L), 300), "variables was found again");
        assertEquals(Map.of(), held.goneSince(1, Map.of(), 400));
        assertEquals(Map.of(FILTERS, 500L), held.goneSince(1, Map.of(FILTERS, 8L), 500), "gone anew");
    }

    @Test
    void aGrantWhoseEndWasToldOrThatWasGrantedAgainIsGoneAnew() {
        held.granted(grant(VARIABLES, 7));
        held.granted(grant(FILTERS, 8));
        held.goneSince(1, Map.of(VARIABLES, 7L, FILTERS, 8L), 100);
        held.ended(VARIABLES, 7, ReleaseReason.ADMIN);
        held.granted(grant(FILTERS, 9));
        assertEquals(Map.of(), held.goneSince(1, Map.of(VARIABLES, 7L, FILTERS, 8L), 200), "no longer believed held");
        assertEquals(Map.of(FILTERS, 300L), held.goneSince(1, Map.of(FILTERS, 9L), 300), "the new grant");
    }

    @Test
    void aRenewalOfOneConfiguratorLeavesWhatAnotherFoundGone() {
        Resource elsewhere = Resource.variables(2);
        held.granted(grant(VARIABLES, 7));
        held.granted(grant(elsewhere, 30));
        held.goneSince(2, Map.of(elsewhere, 30L), 100);
        held.goneSince(1, Map.of(), 200);
        assertEquals(Map.of(elsewhere, 100L), held.goneSince(2, Map.of(elsewhere, 30L), 300));
    }

    @Test
    void aGrantWhoseEndWasHeardBeforeItWasNotedIsNotBelievedHeld() {
        held.granted(grant(VARIABLES, 7));
        held.ended(VARIABLES, 9, ReleaseReason.TAKEN_OVER);
        assertEquals(
                Optional.of(ReleaseReason.TAKEN_OVER),
                held.granted(grant(VARIABLES, 9)),
                "its client is to be told again why it ended");
        assertEquals(Map.of(VARIABLES, 7L), held.in(1), "the grant of 9 ended before it was noted");
        assertEquals(Optional.empty(), held.granted(grant(VARIABLES, 10)));
        assertEquals(Map.of(VARIABLES, 10L), held.in(1), "a later grant is noted");
        held.ended(VARIABLES, 8, ReleaseReason.ADMIN);
        assertEquals(Map.of(VARIABLES, 10L), held.in(1), "the end of an older grant is no news");
    }

    @Test
    void onlyTheLatestEndsOfGrantsNotNotedAreKept() {
        for (long item = 1; item <= 20; item++) {
            held.ended(Resource.itemPage(item, Page.FILTERS).inConfigurator(1), 100 + item, ReleaseReason.ADMIN);
        }
        held.granted(grant(Resource.itemPage(1, Page.FILTERS).inConfigurator(1), 101));
        held.granted(grant(Resource.itemPage(20, Page.FILTERS).inConfigurator(1), 120));
        assertEquals(
                Map.of(Resource.itemPage(1, Page.FILTERS).inConfigurator(1), 101L),
                held.in(1),
                "the end of the first is forgotten, that of the last is not");
    }

    @Test
    void anEndWithoutATokenTakesWhicheverGrantThePageHad() {
        held.granted(grant(VARIABLES, 7));
        held.ended(VARIABLES);
        assertTrue(held.toldBefore(System.nanoTime() + 1).isEmpty());
    }

    @Test
    void aGrantIsLostOnceAndNotAfterItsEndWasToldAnotherWay() {
        held.granted(grant(VARIABLES, 7));
        held.granted(grant(FILTERS, 8));
        List<HeldLocks.Told> told = held.toldBefore(System.nanoTime() + 1);
        HeldLocks.Told variables = told.stream()
                .filter(t -> t.resource().equals(VARIABLES))
                .findFirst()
                .orElseThrow();
        HeldLocks.Told filters = told.stream()
                .filter(t -> t.resource().equals(FILTERS))
                .findFirst()
                .orElseThrow();
        assertTrue(held.lost(variables));
        assertFalse(held.lost(variables), "told once");
        held.ended(FILTERS, 8, ReleaseReason.ADMIN);
        assertFalse(held.lost(filters), "its lock-lost already went out");
    }

    @Test
    void aGrantKeptUntoldWhoseEndWasToldIsUntoldSinceItWasFirstFoundSoWithThatToken() {
        held.granted(grant(VARIABLES, 7));
        held.ended(VARIABLES, 7, ReleaseReason.UNLOCK);
        held.foundUntold(1, Map.of("var", 7L), 100);
        held.foundUntold(1, Map.of("var", 7L), 200);
        assertEquals(List.of(new ToldGrants.Untold("var", 7, 100)), held.untold(1));
        held.ended(VARIABLES, 8, ReleaseReason.ADMIN);
        held.foundUntold(1, Map.of("var", 8L), 300);
        assertEquals(List.of(new ToldGrants.Untold("var", 8, 300)), held.untold(1), "another grant of it");
        assertEquals(List.of(), held.untold(2), "another configurator");
        held.foundUntold(1, Map.of(), 400);
        assertEquals(List.of(), held.untold(1), "not found any more");
    }

    /** An idle release ends every lock a socket held: each of them the store brings back is a stray. */
    @Test
    void theEndsOfManyGrantsHeldAreAllKnownAsTold() {
        Map<String, Long> untold = new HashMap<>();
        for (long item = 1; item <= 40; item++) {
            Resource page = Resource.itemPage(item, Page.FILTERS).inConfigurator(1);
            held.granted(grant(page, 100 + item));
            held.ended(page, 100 + item, ReleaseReason.IDLE);
            untold.put(page.field(), 100 + item);
        }
        held.foundUntold(1, untold, 100);
        assertEquals(40, held.untold(1).size(), "none forgotten: " + held.untold(1));
    }

    /** A grant on its way to the client (a reply, a grant from a line, a resume's) is no stray, but never told. */
    @Test
    void aGrantKeptUntoldWhoseEndWasNotToldIsNeverTold() {
        held.foundUntold(1, Map.of("var", 7L), 100);
        assertEquals(List.of(), held.untold(1));
        assertEquals(List.of(new ToldGrants.Untold("var", 7, 100)), held.neverTold(1));
        held.granted(grant(VARIABLES, 7));
        assertEquals(List.of(), held.neverTold(1), "told of it now");
    }

    @Test
    void aGrantTheClientWasToldOfIsNotUntold() {
        held.ended(VARIABLES, 7, ReleaseReason.ADMIN);
        held.ended(FILTERS, 3, ReleaseReason.ADMIN);
        held.foundUntold(1, Map.of("var", 7L, "i:5:filters", 3L), 100);
        held.granted(grant(FILTERS, 4));
        held.foundUntold(1, Map.of("var", 7L, "i:5:filters", 4L), 200);
        assertEquals(List.of(new ToldGrants.Untold("var", 7, 100)), held.untold(1), "told of the grant of 4");
    }

    /** A re-entry is the same grant: its end heard before the re-entry's reply is told again, at every call. */
    @Test
    void aGrantHeldWhoseEndWasHeardIsEndedWhenToldAgain() {
        held.granted(grant(VARIABLES, 7));
        held.ended(VARIABLES, 7, ReleaseReason.ADMIN);
        assertEquals(Optional.of(ReleaseReason.ADMIN), held.granted(grant(VARIABLES, 7)));
        assertEquals(Optional.of(ReleaseReason.ADMIN), held.granted(grant(VARIABLES, 7)), "asked again");
        assertEquals(Map.of(), held.in(1));
    }

    /** A re-entry of a grant the store took back after its end was told: the client holds it again. */
    @Test
    void aGrantWhoseEndWasHeardBeforeItWasAskedForStands() {
        held.ended(VARIABLES, 7, ReleaseReason.UNLOCK);
        long askedAfter = System.nanoTime() + 1;
        assertEquals(Optional.empty(), held.granted(grant(VARIABLES, 7), askedAfter));
        assertEquals(Map.of(VARIABLES, 7L), held.in(1));
        assertEquals(Optional.empty(), held.granted(grant(VARIABLES, 7), askedAfter), "and stays held");
    }

    @Test
    void aGrantWhoseEndWasHeardSinceItWasAskedForIsNotHeld() {
        long asked = System.nanoTime();
        held.ended(VARIABLES, 7, ReleaseReason.ADMIN);
        assertEquals(Optional.of(ReleaseReason.ADMIN), held.granted(grant(VARIABLES, 7), asked));
        assertEquals(Map.of(), held.in(1));
    }

    /** Tokens of a page only grow: the end of a newer grant heard since the request asked ends its grant too. */
    @Test
    void aGrantWhosePageEndedAgainSinceItWasAskedForIsNotHeld() {
        long asked = System.nanoTime();
        held.ended(VARIABLES, 5, ReleaseReason.ADMIN);
        held.ended(VARIABLES, 6, ReleaseReason.TAKEN_OVER);
        assertEquals(Optional.of(ReleaseReason.TAKEN_OVER), held.granted(grant(VARIABLES, 5), asked));
        assertEquals(Map.of(), held.in(1));
    }

    @Test
    void theEndOfAnOlderGrantIsNotToldToAClientHoldingANewerOne() {
        held.granted(grant(VARIABLES, 9));
        List<String> told = new ArrayList<>();
        held.ended(VARIABLES, 7, ReleaseReason.ADMIN, () -> told.add("7"));
        held.ended(VARIABLES, 9, ReleaseReason.ADMIN, () -> told.add("9"));
        held.ended(FILTERS, 3, ReleaseReason.ADMIN, () -> told.add("3"));
        assertEquals(List.of("9", "3"), told);
    }

    private static Lock grant(Resource resource, long token) {
        Instant now = Instant.now();
        return new Lock(resource, "u1", "Sara", now, now.plusSeconds(30), token, Map.of("s-1", "n-1"));
    }

    private static List<Long> tokens(List<HeldLocks.Told> told) {
        return told.stream().map(HeldLocks.Told::token).sorted().toList();
    }
}
