package io.editlock.waiting;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.lock.Holder;
import io.editlock.lock.Resource;
import io.editlock.session.ResumeStore;
import io.editlock.support.DemoLogin.TestUser;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.UUID;

/**
 * A socket of the user on another node, whose requests are taken in the store directly: this node
 * never heard of them. Listed under the configurator first, as a socket's requests are, so that its
 * going (or idling) reaches what it asked for.
 */
record SocketElsewhere(Holder holder) {

    private static final Duration WAIT = Duration.ofSeconds(15);

    static SocketElsewhere of(TestUser user, WaitingLines lines, long configuratorId) {
        Holder holder = new Holder(user.id(), user.name(), "elsewhere-" + UUID.randomUUID(), "other-node");
        lines.listedFirst(
                        holder.socketId(),
                        configuratorId,
                        () -> Uni.createFrom().voidItem())
                .await()
                .atMost(WAIT);
        return new SocketElsewhere(holder);
    }

    String socketId() {
        return holder.socketId();
    }

    /** Takes a place in the page's line. */
    void waitsFor(WaitingScripts scripts, Resource page) {
        assertInstanceOf(
                WaitReply.Queued.class,
                scripts.waitFor(page, holder, true, 1).await().atMost(WAIT));
    }

    /** Asks for the page to be handed over, with five minutes for its holder to answer. */
    void asksFor(WaitingScripts scripts, Resource page) {
        assertInstanceOf(
                TakeoverReply.Pending.class,
                scripts.requestTakeover(page, holder, "please", Duration.ofMinutes(5), 1)
                        .await()
                        .atMost(WAIT));
    }

    /** The socket dropped: its user may resume it on this node, with the token returned. */
    String dropped(ResumeStore resumes) {
        String resumeToken = "resume-" + UUID.randomUUID();
        resumes.recordLive(resumeToken, holder.socketId(), holder.userId(), holder.nodeId())
                .await()
                .atMost(WAIT);
        resumes.markDropped(resumeToken, Duration.ofMinutes(1)).await().atMost(WAIT);
        return resumeToken;
    }
}
