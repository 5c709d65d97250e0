package io.editlock.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.editlock.redis.LastingSubscription;
import io.editlock.redis.ListeningReadiness;
import io.editlock.redis.LockKeys;
import io.editlock.redis.PipelinedRedis;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Whether a socket is still open on its node (docs/protocol.md §5: only a socket a live node confirms
 * open refuses a resume). The store cannot say: right after a crash it still lists the dead node's
 * sockets as open. So a node asks the socket's node over pub/sub and takes no answer within the
 * answer timeout as "gone"; every node answers the questions about its own sockets.
 */
@ApplicationScoped
public class SocketPresence {

    private static final Logger LOG = Logger.getLogger(SocketPresence.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** docs/protocol.md §5: a node that does not answer for its socket within 1 s counts as gone. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(1);

    private final ReactiveRedisDataSource pubsub;
    private final PipelinedRedis redis;
    private final LockKeys keys;
    private final NodeIdentity node;
    private final SessionRegistry registry;
    private final Map<String, CompletableFuture<Boolean>> asked = new ConcurrentHashMap<>();
    private final Vertx vertx;
    private final ListeningReadiness listening;
    private volatile LastingSubscription subscription;

    public SocketPresence(
            ReactiveRedisDataSource pubsub,
            PipelinedRedis redis,
            LockKeys keys,
            NodeIdentity node,
            SessionRegistry registry,
            Vertx vertx,
            ListeningReadiness listening) {
        this.listening = listening;
        this.vertx = vertx;
        this.pubsub = pubsub;
        this.redis = redis;
        this.keys = keys;
        this.node = node;
        this.registry = registry;
    }

    void start(@Observes StartupEvent event) {
        // Nothing to make up after a loss: a question missed meanwhile has timed out and counted as "gone".
        subscription = listening.watch(
                LastingSubscription.start(pubsub, vertx, keys.nodeInbox(node.id()), this::receive, () -> {}));
    }

    void stop(@Observes ShutdownEvent event) {
        LastingSubscription current = subscription;
        if (current != null) {
            current.stop();
        }
    }

    /** @return true only when the socket's node is alive and says the socket is open */
    public Uni<Boolean> isOpen(String nodeId, String socketId) {
        if (node.id().equals(nodeId)) {
            return Uni.createFrom().item(openHere(socketId));
        }
        return isAlive(nodeId)
                .flatMap(alive ->
                        alive ? ask(nodeId, socketId) : Uni.createFrom().item(false));
    }

    /** @return whether the node's heartbeat goes on (this node's always does while it answers) */
    public Uni<Boolean> isAlive(String nodeId) {
        if (node.id().equals(nodeId)) {
            return Uni.createFrom().item(true);
        }
        return redis.execute(Command.EXISTS, keys.nodeAlive(nodeId)).map(alive -> alive.toInteger() != 0);
    }

    private Uni<Boolean> ask(String nodeId, String socketId) {
        String question = UUID.randomUUID().toString();
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        asked.put(question, answer);
        ObjectNode message =
                JSON.createObjectNode().put("q", question).put("s", socketId).put("from", node.id());
        return redis.execute(Command.PUBLISH, keys.nodeInbox(nodeId), message.toString())
                .chain(() -> Uni.createFrom().completionStage(answer))
                .ifNoItem()
                .after(ANSWER_TIMEOUT)
                .recoverWithItem(false)
                .eventually(() -> asked.remove(question));
    }

    void receive(String text) {
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (Exception e) {
            LOG.warnf("ignoring a malformed node inbox message: %s", e.getMessage());
            return;
        }
        if (message.has("a")) {
            CompletableFuture<Boolean> answer = asked.get(message.path("a").asText());
            if (answer != null) {
                answer.complete(message.path("open").asBoolean());
            }
            return;
        }
        ObjectNode reply = JSON.createObjectNode()
                .put("a", message.path("q").asText())
                .put("open", openHere(message.path("s").asText()));
        redis.execute(Command.PUBLISH, keys.nodeInbox(message.path("from").asText()), reply.toString())
                .subscribe()
                .with(ignored -> {}, failure -> LOG.debugf("could not answer %s: %s", message, failure.getMessage()));
    }

    /**
     * A socket the server is closing counts as gone: its end is decided, a drop, and may be resumed. Not
     * while a request of it is in hand, though: that request may still grant it a lock, and a resume
     * before then would leave that lock behind on a socket nobody renews.
     */
    private boolean openHere(String socketId) {
        return registry.find(socketId)
                .map(session -> session.requestInHand() || (session.connection().isOpen() && !session.closedByServer()))
                .orElse(false);
    }
}
