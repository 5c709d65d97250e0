package io.editlock.waiting;

import static io.editlock.support.Sockets.about;
import static io.editlock.support.Sockets.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.editlock.support.Api;
import io.editlock.support.DemoLogin;
import io.editlock.support.DemoLogin.TestUser;
import io.editlock.support.Sockets;
import io.editlock.support.WsClient;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §14: everyone behind moves up and gets {@code queue-updated}, and the last word a
 * waiter gets is where they are (§4). Six users wait for one page; the first three leave at the same
 * moment, so that the node hears three moves of the line while it still reads where the others stand.
 * Each of the other three must end on their true place, told only positions that are news: a place
 * only moves forward, so each word is smaller than the one before. Many rounds, as the reads race.
 */
@QuarkusTest
class WaitersMovingUpTogetherTest {

    private static final int ROUNDS = 30;
    private static final int WAITERS = 6;
    private static final int LEAVING = 3;
    private static final long SETTLE_MS = 3000;
    private static final long QUIET_MS = 150;

    @TestHTTPResource("/")
    URI base;

    private final Sockets sockets = new Sockets();

    @AfterEach
    void close() {
        sockets.close();
    }

    @Test
    void eachWaiterEndsOnTheirTruePlaceAndHearsNoPositionTwice() throws Exception {
        TestUser holderUser = DemoLogin.user("Hana");
        long c = Api.configurator(holderUser);
        WsClient holder = sockets.connect(base, holderUser);
        List<WsClient> waiters = new ArrayList<>();
        for (int i = 0; i < WAITERS; i++) {
            waiters.add(sockets.connect(base, DemoLogin.user("Waiter" + i)));
        }
        List<String> wrong = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            // A page of its own per round: a late word about the last round's page cannot pass for this one's.
            long item = Api.item(holderUser, c, null);
            assertEquals(
                    "lock-acquired",
                    holder.request("lock-item-subresource", page(item))
                            .path("event")
                            .asText());
            List<Long> joinedAt = new ArrayList<>();
            for (WsClient waiter : waiters) {
                JsonNode queued = waiter.request("wait-for", about(item));
                assertEquals("queued", queued.path("event").asText(), queued.toString());
                joinedAt.add(queued.path("data").path("position").asLong());
            }
            List<String> refs = new ArrayList<>();
            for (WsClient leaving : waiters.subList(0, LEAVING)) {
                refs.add(leaving.send("stop-waiting", about(item)));
            }
            for (int i = 0; i < LEAVING; i++) {
                assertEquals(
                        "not-waiting",
                        waiters.get(i).reply(refs.get(i)).path("event").asText());
            }
            settle(waiters.subList(LEAVING, WAITERS), item);
            for (int i = LEAVING; i < WAITERS; i++) {
                List<Long> told = new ArrayList<>();
                told.add(joinedAt.get(i));
                told.addAll(positionsTold(waiters.get(i), item));
                long truePlace = i - LEAVING + 1;
                boolean ends = told.get(told.size() - 1) == truePlace;
                boolean onlyNews = true;
                for (int k = 1; k < told.size(); k++) {
                    onlyNews &= told.get(k) < told.get(k - 1);
                }
                if (!ends || !onlyNews) {
                    wrong.add("round " + round + ", waiter " + i + ": joined, then told " + told + ", is " + truePlace);
                }
            }
            for (WsClient staying : waiters.subList(LEAVING, WAITERS)) {
                staying.request("stop-waiting", about(item));
            }
            holder.request("unlock-item-subresource", page(item));
        }
        assertTrue(wrong.isEmpty(), wrong.size() + " waiters of " + ROUNDS * (WAITERS - LEAVING) + ": " + wrong);
    }

    /**
     * Until each waiter was told where they are now and nothing came for a moment; a waiter left on a
     * wrong word is not waited for past {@link #SETTLE_MS}.
     */
    private static void settle(List<WsClient> staying, long item) throws InterruptedException {
        long until = System.currentTimeMillis() + SETTLE_MS;
        int heard = -1;
        while (System.currentTimeMillis() < until) {
            int now = 0;
            boolean allThere = true;
            for (int i = 0; i < staying.size(); i++) {
                List<Long> told = positionsTold(staying.get(i), item);
                now += told.size();
                allThere &= !told.isEmpty() && told.get(told.size() - 1) == i + 1;
            }
            if (allThere && now == heard) {
                return;
            }
            heard = now;
            Thread.sleep(QUIET_MS);
        }
    }

    private static List<Long> positionsTold(WsClient waiter, long item) {
        return waiter
                .frames(frame -> frame.path("event").asText().equals("queue-updated")
                        && frame.path("data").path("resource").path("itemId").asLong() == item)
                .stream()
                .map(frame -> frame.path("data").path("position").asLong())
                .toList();
    }
}
