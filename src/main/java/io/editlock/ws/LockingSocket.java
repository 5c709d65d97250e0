package io.editlock.ws;

import io.editlock.auth.Identity;
import io.editlock.auth.LockingUpgradeCheck;
import io.editlock.limits.SocketQuota;
import io.editlock.protocol.ClientRequest;
import io.editlock.protocol.CloseReasons;
import io.editlock.protocol.FrameDecoder;
import io.editlock.protocol.Messages;
import io.editlock.requests.RequestHandler;
import io.editlock.requests.SocketError;
import io.editlock.session.FrameSender;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SessionRegistry;
import io.editlock.session.SocketSession;
import io.editlock.session.TokenLifetime;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnError;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnPongMessage;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import org.jboss.logging.Logger;

/**
 * {@code /locking}: decodes a frame, hands it to the {@link RequestHandler}, sends the one reply.
 * Holds no state: per-socket facts live in the {@link SessionRegistry}. Messages of one connection
 * are processed one after another, so replies keep the order of requests.
 */
@WebSocket(path = LockingSocket.PATH)
public class LockingSocket {

    static final String PATH = "/locking";

    private static final Logger LOG = Logger.getLogger(LockingSocket.class);

    private final FrameDecoder decoder;
    private final RequestHandler handler;
    private final SessionLifecycle lifecycle;
    private final SessionRegistry registry;
    private final TokenLifetime tokenLifetime;
    private final FrameSender sender;
    private final SocketQuota quota;

    public LockingSocket(
            FrameDecoder decoder,
            RequestHandler handler,
            SessionLifecycle lifecycle,
            SessionRegistry registry,
            TokenLifetime tokenLifetime,
            FrameSender sender,
            SocketQuota quota) {
        this.decoder = decoder;
        this.handler = handler;
        this.lifecycle = lifecycle;
        this.registry = registry;
        this.tokenLifetime = tokenLifetime;
        this.sender = sender;
        this.quota = quota;
    }

    /**
     * Sends welcome through the {@link FrameSender}, not as the return value: events of the user that
     * come once the socket is registered wait there for it.
     */
    @OnOpen
    public void onOpen(WebSocketConnection connection) {
        Identity identity = connection.userData().get(LockingUpgradeCheck.IDENTITY);
        SocketSession session = lifecycle.open(new WebSocketClientConnection(connection), identity);
        quota.opened(identity.userId());
        if (!quota.withinLimit(identity.userId())) {
            // Its place was given back before it opened, and others took it: the one beyond the limit goes.
            lifecycle.closeByServer(session, CloseReasons.TOO_MANY_SOCKETS);
            return;
        }
        tokenLifetime.start(session, connection.userData().get(LockingUpgradeCheck.TOKEN_EXPIRES_AT));
        // The session keeps both from here: an entry in the user data costs every idle socket its share.
        connection.userData().remove(LockingUpgradeCheck.IDENTITY);
        connection.userData().remove(LockingUpgradeCheck.TOKEN_EXPIRES_AT);
        sender.welcome(session, handler.welcome(session));
    }

    /** The reply goes out through the {@link FrameSender}, so that it counts towards the socket's unsent bytes. */
    @OnTextMessage
    public Uni<Void> onMessage(WebSocketConnection connection, String frame) {
        return onRequest(connection, decoder.decode(frame));
    }

    private Uni<Void> onRequest(WebSocketConnection connection, ClientRequest request) {
        return registry.find(connection.id())
                .map(session -> {
                    session.bindEventLoop(Vertx.currentContext());
                    session.requestStarted();
                    return handler.handle(session, request)
                            .invoke(answer -> handler.deliver(session, answer, reply -> sender.send(session, reply)))
                            .onTermination()
                            .invoke(session::requestEnded)
                            .replaceWithVoid();
                })
                .orElseGet(() -> Uni.createFrom().voidItem());
    }

    /**
     * Every frame must be a JSON text message (docs/protocol.md §4). Without this method Vert.x drops binary
     * frames silently, and such a request would get no reply at all; with it, binary messages are
     * also held to the size limit (see {@link #isOverSizeLimit}), and, as any malformed frame, to the
     * frame rate and the socket's unsent bytes.
     */
    @OnBinaryMessage
    public Uni<Void> onBinary(WebSocketConnection connection, Buffer data) {
        return onRequest(connection, new ClientRequest.Invalid(null, Messages.BINARY_FRAME));
    }

    @OnPongMessage
    public void onPong(WebSocketConnection connection, Buffer data) {
        registry.find(connection.id()).ifPresent(SocketSession::markPong);
    }

    @OnClose
    public Uni<Void> onClose(WebSocketConnection connection) {
        CloseReason reason = connection.closeReason();
        // The request in hand ends first: a grant it makes belongs to what the end releases or keeps for
        // a resume, never to a socket nobody renews (docs/protocol.md §5).
        return registry.find(connection.id())
                .map(session -> Uni.createFrom()
                        .completionStage(session.requestAnswered())
                        .chain(() -> lifecycle.closed(session, reason)))
                .orElseGet(() -> Uni.createFrom().voidItem());
    }

    /** The last line of defence: an unexpected failure is logged and answered, the socket stays open. */
    @OnError
    public String onError(WebSocketConnection connection, Throwable failure) {
        if (failure instanceof HttpClosedException || connection.isClosed()) {
            LOG.debugf("socket %s closed while sending: %s", connection.id(), failure.getMessage());
            return null;
        }
        if (isOverSizeLimit(failure)) {
            // docs/protocol.md §4: a frame over the maximum closes the socket with 1009. Vert.x only reports
            // it as a failure (and drops the message); closing is ours to do. A server-initiated
            // close counts as a drop (§5), so closeByServer lets the locks wait out the grace period.
            registry.find(connection.id())
                    .ifPresentOrElse(
                            session -> lifecycle.closeByServer(session, CloseReasons.MESSAGE_TOO_BIG),
                            () -> connection
                                    .close(CloseReasons.MESSAGE_TOO_BIG)
                                    .subscribe()
                                    .with(ignored -> {}, ignored -> {}));
            return null;
        }
        LOG.errorf(failure, "unexpected failure on socket %s", connection.id());
        return SocketError.frame(new SocketError.Internal(), null);
    }

    /**
     * Vert.x reports a message over {@code max-message-size} (one frame or several) as an
     * IllegalStateException "Cannot process text|binary frame of size ..., ... max message size of ...".
     */
    private static boolean isOverSizeLimit(Throwable failure) {
        return failure instanceof IllegalStateException
                && failure.getMessage() != null
                && failure.getMessage().startsWith("Cannot process ")
                && failure.getMessage().contains("max message size");
    }
}
