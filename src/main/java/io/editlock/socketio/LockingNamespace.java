package io.editlock.socketio;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.editlock.auth.AccessTokens;
import io.editlock.protocol.ClientRequest;
import io.editlock.protocol.FrameDecoder;
import io.editlock.requests.RequestHandler;
import io.editlock.session.FrameSender;
import io.editlock.session.SessionLifecycle;
import io.editlock.session.SocketSession;
import io.editlock.session.TokenLifetime;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;

/**
 * The {@code /locking} namespace (docs/protocol.md §12): connect with identity, then every event is
 * decoded and answered by the same {@link RequestHandler} as {@code /locking} WebSocket frames.
 */
@ApplicationScoped
public class LockingNamespace {

    static final String NAME = "/locking";

    private final SocketIoAuth auth;
    private final SessionLifecycle lifecycle;
    private final RequestHandler handler;
    private final FrameDecoder decoder;
    private final ObjectMapper json;
    private final TokenLifetime tokenLifetime;
    private final FrameSender sender;

    public LockingNamespace(
            SocketIoAuth auth,
            SessionLifecycle lifecycle,
            RequestHandler handler,
            FrameDecoder decoder,
            ObjectMapper json,
            TokenLifetime tokenLifetime,
            FrameSender sender) {
        this.tokenLifetime = tokenLifetime;
        this.sender = sender;
        this.auth = auth;
        this.lifecycle = lifecycle;
        this.handler = handler;
        this.decoder = decoder;
        this.json = json;
    }

    /** @param place the session's place among those nobody connected on, given back when a socket connects */
    EngineSession.Listener client(EngineSession engine, UnconnectedSessions.Place place) {
        return new SocketIoClient(engine, this, place);
    }

    /**
     * Opens the socket of a CONNECT; {@link #greet} answers it. @return the socket, or null when the
     * connect was refused (a connect_error went out)
     */
    NamespaceSocket connect(EngineSession engine, String payload) {
        AccessTokens.Verified verified;
        try {
            verified = auth.identify(engine.handshake(), parse(payload));
        } catch (SocketIoAuth.Refused refused) {
            String code = refused.code().wire();
            String error = "{\"message\":\"" + code + "\",\"data\":{\"code\":\"" + code + "\"}}";
            engine.sendMessage(SocketIoPacket.encode(SocketIoPacket.CONNECT_ERROR, NAME, null, error));
            return null;
        }
        NamespaceSocket socket = new NamespaceSocket(engine, lifecycle);
        SocketSession session = lifecycle.open(socket, verified.identity());
        socket.session(session);
        auth.opened(verified.identity().userId());
        tokenLifetime.start(session, verified.expiresAt());
        return socket;
    }

    /**
     * The connect reply and the welcome of a socket {@link #connect} opened, sent once the session
     * knows the socket: an event the client sends the moment it reads the reply must find it. The
     * user's events reach the socket from {@code lifecycle.open} on; the sender holds them until the
     * welcome, which follows the connect reply.
     */
    void greet(EngineSession engine, NamespaceSocket socket) {
        acknowledgeConnect(engine, socket);
        sender.welcome(socket.session(), handler.welcome(socket.session()));
    }

    void acknowledgeConnect(EngineSession engine, NamespaceSocket socket) {
        engine.sendMessage(
                SocketIoPacket.encode(SocketIoPacket.CONNECT, NAME, null, "{\"sid\":\"" + socket.id() + "\"}"));
    }

    void event(NamespaceSocket socket, SocketIoPacket packet) {
        SocketSession session = socket.session();
        session.bindEventLoop(Vertx.currentContext());
        ClientRequest request = request(packet);
        socket.enqueue(() -> {
            session.requestStarted();
            return handler.handle(session, request)
                    .invoke(answer -> handler.deliver(session, answer, reply -> socket.reply(packet.ackId(), reply)))
                    .onTermination()
                    .invoke(session::requestEnded)
                    .replaceWithVoid();
        });
    }

    /** A request's only argument is its data (docs/protocol.md §12). */
    private ClientRequest request(SocketIoPacket packet) {
        if (packet.type() == SocketIoPacket.BINARY_EVENT) {
            return new ClientRequest.Invalid(null, "binary packets are not accepted: data must be JSON");
        }
        JsonNode arguments;
        try {
            arguments = parseArguments(packet.payload());
        } catch (StreamConstraintsException e) {
            return new ClientRequest.Invalid(null, FrameDecoder.BEYOND_LIMITS);
        } catch (IOException e) {
            return new ClientRequest.Invalid(null, "the event is not JSON");
        }
        if (arguments == null
                || !arguments.isArray()
                || arguments.isEmpty()
                || !arguments.get(0).isTextual()) {
            return new ClientRequest.Invalid(null, "an event must have a name and its data");
        }
        // Whatever else a client sends would be ignored, and it would believe it had been read.
        if (arguments.size() > 2) {
            return new ClientRequest.Invalid(null, "an event has one argument, its data");
        }
        return decoder.decode(arguments.get(0).textValue(), arguments.get(1));
    }

    private JsonNode parse(String payload) {
        try {
            return parseArguments(payload);
        } catch (IOException e) {
            return null;
        }
    }

    /** The same strict JSON as a {@code /locking} frame: each field once, nothing after the value. */
    private JsonNode parseArguments(String payload) throws IOException {
        return payload.isEmpty() ? null : json.readTree(payload);
    }
}
