package io.editlock.waiting;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Requests of this node whose reply from the store has not come yet, by what they are about (a user's
 * page, a configurator), and whether what they asked about ended meanwhile: the end travels apart
 * from the reply and may be heard first, and what it ended must not be recorded after it. One user may
 * ask for the same page from several tabs at once, so each request has a ticket of its own: an end
 * marks the tickets in flight when it is heard, not those that start later, and a ticket answered
 * twice (a failure after its reply) counts once.
 */
public final class InFlightRequests {

    /** One request in flight. */
    public static final class Ticket {
        private final String key;
        /** Under the lock of its key in {@code requests}. */
        private boolean ended;
        /** What ended of what it may be answered with (a place in a line, by its member), under that lock too. */
        private Set<String> endedAnswers;

        private Ticket(String key) {
            this.key = key;
        }
    }

    private final Map<String, Set<Ticket>> requests = new ConcurrentHashMap<>();

    public Ticket started(String key) {
        Ticket ticket = new Ticket(key);
        requests.compute(key, (ignored, tickets) -> {
            Set<Ticket> current = tickets == null ? ConcurrentHashMap.newKeySet() : tickets;
            current.add(ticket);
            return current;
        });
        return ticket;
    }

    /** What the key's requests in flight asked for ended: before what it ended is removed, so that no reply records it after. */
    public void ended(String key) {
        requests.computeIfPresent(key, (ignored, tickets) -> {
            tickets.forEach(ticket -> ticket.ended = true);
            return tickets;
        });
    }

    /**
     * One particular answer the key's requests in flight may get ended (a place in a line left: its
     * member, which the store never hands out twice in a configurator): a request answered with it
     * records nothing. One answered with another (a place taken since) still records.
     */
    void ended(String key, String answer) {
        requests.computeIfPresent(key, (ignored, tickets) -> {
            tickets.forEach(ticket -> {
                if (ticket.endedAnswers == null) {
                    ticket.endedAnswers = new HashSet<>();
                }
                ticket.endedAnswers.add(answer);
            });
            return tickets;
        });
    }

    /** The request came to nothing to record (refused, failed); again is harmless. */
    public void dropped(Ticket ticket) {
        answered(ticket, () -> {});
    }

    /**
     * The request's reply came: {@code record} runs unless what it asked for ended while it was in
     * flight, in the same step that takes the ticket out, so that an end heard meanwhile on another
     * thread comes either before (nothing recorded) or after (and removes what was recorded). A ticket
     * answered before records nothing.
     *
     * @return whether it was recorded
     */
    public boolean answered(Ticket ticket, Runnable record) {
        return answered(ticket, null, record);
    }

    /** As {@link #answered(Ticket, Runnable)}, for a request answered with {@code answer} (see {@link #ended(String, String)}). */
    boolean answered(Ticket ticket, String answer, Runnable record) {
        boolean[] recorded = new boolean[1];
        requests.computeIfPresent(ticket.key, (ignored, tickets) -> {
            boolean answerEnded = answer != null && ticket.endedAnswers != null && ticket.endedAnswers.contains(answer);
            if (tickets.remove(ticket) && !ticket.ended && !answerEnded) {
                record.run();
                recorded[0] = true;
            }
            return tickets.isEmpty() ? null : tickets;
        });
        return recorded[0];
    }
}
