package io.editlock.session;

import io.editlock.lock.Lock;
import io.editlock.lock.ReleaseReason;
import io.editlock.lock.Resource;
import io.editlock.lock.ToldGrants;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The locks a socket's client was told it holds and not yet told it lost. The node keeps this so that
 * after a while of not hearing the store (its subscription cut, the store restarted) it can tell the
 * client of each lock that ended meanwhile, which it would otherwise never hear of (docs/protocol.md
 * §4). A grant is known by its fencing token: news of an older grant's end never takes away a newer
 * grant of the same page. The socket's lease renewals check these grants against the store, which may
 * have lost some by going back in time (§6; {@link ToldGrants}).
 */
public final class HeldLocks implements ToldGrants {

    /** A grant as the client was told of it, and when ({@link System#nanoTime()}). */
    public record Told(Resource resource, long token, long atNanos) {}

    private static final int LATEST_ENDS = 16;
    private static final int ENDS_OF_HELD = 256;

    /** A socket holds a handful of locks at most (docs/protocol.md §2). */
    private final Map<Resource, Told> told = new HashMap<>(4);
    /**
     * The latest ends heard, by page: a grant noted after its end was heard (its reply was on its way, or
     * it came back as a re-entry) is not held. Such a grant is noted within a round trip or two of its
     * end, so a few of the latest are enough, and the ends of the user's other sockets' grants do not
     * pile up here.
     */
    private final Map<Resource, Ended> latestEnds = new LinkedHashMap<>(8, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Resource, Ended> eldest) {
            return size() > LATEST_ENDS;
        }
    };
    /**
     * The fencing tokens of the latest grants the client was told it held and then told ended, by page:
     * what tells a grant the store brought back (a stray) from one on its way to the client. Kept for
     * more pages than {@link #latestEnds}, as a socket may have held many when an idle release ended
     * them all.
     */
    private final Map<Resource, Long> endsOfHeld = new LinkedHashMap<>(8, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Resource, Long> eldest) {
            return size() > ENDS_OF_HELD;
        }
    };
    /** Grants the renewals of their configurator found gone from the store, each since it was first found gone. */
    private final Map<Resource, Gone> foundGone = new HashMap<>(2);

    private record Gone(long token, long since) {}

    /** Grants renewals found the socket keeping and its client not told of, by configurator and lock field. */
    private final Map<Long, Map<String, Untold>> foundUntold = new HashMap<>(1);

    /** @param heardAt {@link System#nanoTime()} */
    private record Ended(long token, ReleaseReason reason, long heardAt) {}

    /**
     * Where an unlock of this socket stands that its release may still answer (docs/protocol.md §4): asked
     * and not yet answered, its release heard while its reply was on its way, or answered UNAVAILABLE.
     */
    private enum Unlock {
        ASKED,
        RELEASE_HEARD,
        ANSWERED_UNAVAILABLE
    }

    /** @param released the page as the release named it (with its configurator), once heard */
    private record UnlockState(Unlock stage, Resource released) {}

    private static final int UNLOCKS = 16;

    /**
     * By canonical name: the client names an item page without its configurator, the release names it
     * with.
     */
    private final Map<String, UnlockState> unlocks = new LinkedHashMap<>(4, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, UnlockState> eldest) {
            return size() > UNLOCKS;
        }
    };

    /**
     * The client is told it holds {@code lock}, a grant it did not ask for (a line served it, a holder
     * handed it over): as {@link #granted(Lock, long)}, with every end heard of it counting.
     */
    public synchronized Optional<ReleaseReason> granted(Lock lock) {
        return noted(lock, true, 0);
    }

    /**
     * The client is told, in the reply to its request asked at {@code askedAt} ({@link
     * System#nanoTime()}), that it holds {@code lock} (a re-entry is the same grant, told when it was
     * first), unless the end of that grant was heard since it asked: a grant is noted a round trip or two
     * after the store made it, and its end may come in between. An end heard before it asked is one the
     * store took back (it went back in time): the grant stands. The caller holds this object's monitor
     * while it tells the client, as {@link #ended(Resource, long, ReleaseReason, Runnable)} does, so that
     * the client hears of a grant and of its end in the order they were noted.
     *
     * @return why the grant ended, when that end was heard first: the client got its {@code lock-lost}
     *     before the grant, and must be told again after it (docs/protocol.md §4)
     */
    public synchronized Optional<ReleaseReason> granted(Lock lock, long askedAt) {
        return noted(lock, false, askedAt);
    }

    private Optional<ReleaseReason> noted(Lock lock, boolean anyEnd, long askedAt) {
        Ended end = latestEnds.get(lock.resource());
        // The end of a newer grant of the page is the end of this one too: the user had this one first.
        if (end != null && end.token() >= lock.token()) {
            if (anyEnd || end.heardAt() - askedAt >= 0) {
                return Optional.of(end.reason());
            }
            latestEnds.remove(lock.resource());
        }
        Told before = told.get(lock.resource());
        if (before == null || before.token() != lock.token()) {
            told.put(lock.resource(), new Told(lock.resource(), lock.token(), System.nanoTime()));
        }
        return Optional.empty();
    }

    /**
     * The grant of {@code resource} with this token ended, for {@code reason}, and {@code tell} tells its
     * client so at the same moment, under this object's monitor (see {@link #granted(Lock, long)}); but
     * not a client told since of a newer grant of the page, which the end of an older one would take away.
     */
    public synchronized void ended(Resource resource, long token, ReleaseReason reason, Runnable tell) {
        Told current = told.get(resource);
        ended(resource, token, reason);
        if (current == null || current.token() <= token) {
            tell.run();
        }
    }

    /** The grant of {@code resource} with this token ended, for {@code reason}. */
    public synchronized void ended(Resource resource, long token, ReleaseReason reason) {
        Told current = told.get(resource);
        if (current != null && current.token() == token) {
            told.remove(resource);
            endsOfHeld.put(resource, token);
        }
        if (current == null || current.token() <= token) {
            latestEnds.put(resource, new Ended(token, reason, System.nanoTime()));
        }
    }

    /** The client was told that whichever grant of {@code resource} it held ended. */
    public synchronized void ended(Resource resource) {
        told.remove(resource);
        unlocks.remove(resource.canonical());
    }

    /** This socket asks to unlock {@code resource}; its release names this socket as the one that asked. */
    public synchronized void unlockAsked(Resource resource) {
        unlocks.put(resource.canonical(), new UnlockState(Unlock.ASKED, null));
    }

    /** The unlock of {@code resource} was answered, and not with UNAVAILABLE: its reply told what became of it. */
    public synchronized void unlockAnswered(Resource resource) {
        unlocks.remove(resource.canonical());
    }

    /**
     * A release by an unlock that this socket asked for, heard: as {@link #ended(Resource, long,
     * ReleaseReason, Runnable)}, but the unlock's reply tells the client, unless that reply was UNAVAILABLE
     * (the script ran in time and its answer came late): then {@code tell} tells it now.
     */
    public synchronized void endedByItsUnlock(Resource resource, long token, Runnable tell) {
        Told current = told.get(resource);
        ended(resource, token, ReleaseReason.UNLOCK);
        String page = resource.canonical();
        UnlockState unlock = unlocks.get(page);
        if (unlock == null) {
            return;
        }
        if (unlock.stage() == Unlock.ASKED) {
            unlocks.put(page, new UnlockState(Unlock.RELEASE_HEARD, resource));
        } else if (unlock.stage() == Unlock.ANSWERED_UNAVAILABLE) {
            unlocks.remove(page);
            if (current == null || current.token() <= token) {
                tell.run();
            }
        }
    }

    /**
     * The unlock of {@code resource} is answered UNAVAILABLE with {@code writeReply}, under this object's
     * monitor. The store may have carried it out all the same: if its release was heard meanwhile, {@code
     * tellReleased} is given the page as the release named it and follows the reply at once; else {@link
     * #endedByItsUnlock} tells it when it is heard.
     */
    public synchronized void unlockUnavailable(
            Resource resource, Runnable writeReply, Consumer<Resource> tellReleased) {
        writeReply.run();
        String page = resource.canonical();
        UnlockState unlock = unlocks.remove(page);
        if (unlock != null && unlock.stage() == Unlock.RELEASE_HEARD) {
            tellReleased.accept(unlock.released());
        } else {
            unlocks.put(page, new UnlockState(Unlock.ANSWERED_UNAVAILABLE, null));
        }
    }

    /** The grants the client was told of before {@code nanos}, and still believes it holds. */
    public synchronized List<Told> toldBefore(long nanos) {
        List<Told> before = new ArrayList<>(told.size());
        for (Told grant : told.values()) {
            if (grant.atNanos() - nanos < 0) {
                before.add(grant);
            }
        }
        return before;
    }

    /** Whether the client believes it holds anything in that configurator. */
    public synchronized boolean anyIn(long configuratorId) {
        for (Resource resource : told.keySet()) {
            if (isIn(resource, configuratorId)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized Map<Resource, Long> in(long configuratorId) {
        Map<Resource, Long> in = new HashMap<>(2);
        for (Told grant : told.values()) {
            if (isIn(grant.resource(), configuratorId)) {
                in.put(grant.resource(), grant.token());
            }
        }
        return in;
    }

    @Override
    public synchronized Map<Resource, Long> goneSince(long configuratorId, Map<Resource, Long> missing, long now) {
        Map<Resource, Long> since = new HashMap<>(2);
        missing.forEach((resource, token) -> {
            if (believed(resource, token)) {
                Gone before = foundGone.get(resource);
                since.put(resource, before != null && before.token() == token ? before.since() : now);
            }
        });
        foundGone.keySet().removeIf(resource -> isIn(resource, configuratorId));
        since.forEach((resource, first) -> foundGone.put(resource, new Gone(missing.get(resource), first)));
        return since;
    }

    @Override
    public synchronized void foundUntold(long configuratorId, Map<String, Long> untold, long now) {
        Map<String, Untold> before = foundUntold.getOrDefault(configuratorId, Map.of());
        Map<String, Untold> found = new HashMap<>(2);
        untold.forEach((field, token) -> {
            if (!believed(configuratorId, field, token)) {
                Untold earlier = before.get(field);
                found.put(field, earlier != null && earlier.token() == token ? earlier : new Untold(field, token, now));
            }
        });
        if (found.isEmpty()) {
            foundUntold.remove(configuratorId);
        } else {
            foundUntold.put(configuratorId, found);
        }
    }

    @Override
    public synchronized List<Untold> untold(long configuratorId) {
        return foundUntold(configuratorId, true);
    }

    @Override
    public synchronized List<Untold> neverTold(long configuratorId) {
        return foundUntold(configuratorId, false);
    }

    private List<Untold> foundUntold(long configuratorId, boolean endTold) {
        Map<String, Untold> found = foundUntold.get(configuratorId);
        if (found == null) {
            return List.of();
        }
        List<Untold> untold = new ArrayList<>(found.size());
        for (Untold grant : found.values()) {
            if (!believed(configuratorId, grant.field(), grant.token())
                    && endTold(configuratorId, grant.field(), grant.token()) == endTold) {
                untold.add(grant);
            }
        }
        return untold;
    }

    /** Whether the client was told, lately, that this grant ended. */
    private boolean endTold(long configuratorId, String field, long token) {
        for (Map.Entry<Resource, Ended> end : latestEnds.entrySet()) {
            if (end.getValue().token() == token && isPage(end.getKey(), configuratorId, field)) {
                return true;
            }
        }
        for (Map.Entry<Resource, Long> end : endsOfHeld.entrySet()) {
            if (end.getValue() == token && isPage(end.getKey(), configuratorId, field)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isPage(Resource resource, long configuratorId, String field) {
        return isIn(resource, configuratorId) && resource.field().equals(field);
    }

    private boolean believed(long configuratorId, String field, long token) {
        for (Told grant : told.values()) {
            if (grant.token() == token
                    && isIn(grant.resource(), configuratorId)
                    && grant.resource().field().equals(field)) {
                return true;
            }
        }
        return false;
    }

    private boolean believed(Resource resource, long token) {
        Told current = told.get(resource);
        return current != null && current.token() == token;
    }

    private static boolean isIn(Resource resource, long configuratorId) {
        return resource.configuratorId() != null && resource.configuratorId() == configuratorId;
    }

    /** @return whether {@code grant} was still believed held: only then is its client to be told it is lost */
    public synchronized boolean lost(Told grant) {
        return told.remove(grant.resource(), grant);
    }
}
