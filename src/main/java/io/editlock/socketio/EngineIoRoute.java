package io.editlock.socketio;

import io.editlock.auth.OriginPolicy;
import io.editlock.config.EditlockConfig;
import io.editlock.session.SessionLifecycle;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code /socket.io/}: the HTTP side of Engine.IO v4 (docs/protocol.md §12). A request without a
 * sid is a handshake (long-polling, or a WebSocket from the start); one with a sid is a poll (GET),
 * packets from the client (POST), or the WebSocket of an upgrade. Anything else is answered 400
 * with Engine.IO's error body.
 */
@ApplicationScoped
public class EngineIoRoute {

    private static final String POLLING = "polling";
    private static final String WEBSOCKET = "websocket";

    private final EngineSessions sessions;
    private final LockingNamespace namespace;
    private final OriginPolicy origins;
    private final SessionLifecycle lifecycle;
    private final HandshakeGate gate;
    private final boolean enabled;

    public EngineIoRoute(
            EngineSessions sessions,
            LockingNamespace namespace,
            OriginPolicy origins,
            SessionLifecycle lifecycle,
            HandshakeGate gate,
            EditlockConfig config) {
        this.sessions = sessions;
        this.namespace = namespace;
        this.origins = origins;
        this.lifecycle = lifecycle;
        this.gate = gate;
        this.enabled = config.socketio().enabled();
    }

    void install(@Observes Router router) {
        if (enabled) {
            router.routeWithRegex("/socket\\.io/?").handler(this::handle);
        }
    }

    private void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        allowCrossOrigin(request);
        // A poll's answer is new packets every time: no cache in between may keep one.
        request.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (request.method() == HttpMethod.OPTIONS) {
            request.response().setStatusCode(204).end();
            return;
        }
        if (!"4".equals(request.getParam("EIO"))) {
            fail(request, EngineError.UNSUPPORTED_PROTOCOL_VERSION);
            return;
        }
        String transport = request.getParam("transport");
        if (!POLLING.equals(transport) && !WEBSOCKET.equals(transport)) {
            fail(request, EngineError.UNKNOWN_TRANSPORT);
            return;
        }
        boolean upgrade = WEBSOCKET.equalsIgnoreCase(request.getHeader(HttpHeaders.UPGRADE));
        if (WEBSOCKET.equals(transport) != upgrade) {
            fail(request, EngineError.BAD_REQUEST);
            return;
        }
        String sid = request.getParam("sid");
        if (sid == null) {
            handshake(request, upgrade);
            return;
        }
        sessions.find(sid).ifPresentOrElse(session -> resume(request, session, upgrade), () -> unknownSession(request));
    }

    /**
     * The sid alone carries a session that a socket signed in on, and it travels in every URL: a page
     * of another site must not take the session over with it, although a CONNECT is the only step that
     * checks the token (docs/protocol.md §3, §12). A request with an Origin comes from the page that
     * opened the session, or, when that request had none (a browser sends none with a same-site GET),
     * from a page the Origin check permits. A request without one (a same-site GET, a client outside a
     * browser) is let through, as at the CONNECT, unless its browser names it cross-site; so is a
     * refused page on its own session, which learns at its CONNECT why it is refused.
     */
    private boolean fromTheSessionsPage(HttpServerRequest request, EngineSession session) {
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        String opened = session.handshake().origin();
        if (origin == null) {
            // A page of another site can still send a GET without an Origin (an image, a script):
            // browsers that say where a request comes from name it cross-site.
            return !"cross-site".equals(request.getHeader("Sec-Fetch-Site"));
        }
        if (origin.equals(opened)) {
            return true;
        }
        return opened == null && origins.permits(origin, request.getHeader(HttpHeaders.HOST), request.scheme());
    }

    private void handshake(HttpServerRequest request, boolean upgrade) {
        if (request.method() != HttpMethod.GET) {
            fail(request, EngineError.BAD_HANDSHAKE_METHOD);
            return;
        }
        if (lifecycle.stopping()) {
            // A stopping node takes no new sessions (§5): refused before it opens one, so that a proxy tries
            // another node for the same request and the client's reconnect is not spent here.
            refuseWhileStopping(request);
            return;
        }
        Optional<HandshakeGate.Admitted> admitted = gate.admit(request);
        if (admitted.isEmpty()) {
            return;
        }
        EngineSession session = sessions.create(admitted.get().handshake());
        session.listener(namespace.client(session, admitted.get().place()));
        if (upgrade) {
            request.toWebSocket()
                    .onSuccess(session::openWebSocket)
                    .onFailure(failure -> session.close("transport error"));
        } else {
            session.openPolling(request.response());
        }
    }

    private void resume(HttpServerRequest request, EngineSession session, boolean upgrade) {
        if (!fromTheSessionsPage(request, session)) {
            fail(request, EngineError.BAD_REQUEST);
            return;
        }
        if (upgrade) {
            if (!session.isPolling()) {
                fail(request, EngineError.BAD_REQUEST);
                return;
            }
            request.toWebSocket().onSuccess(session::probe);
            return;
        }
        if (!session.isPolling()) {
            fail(request, EngineError.BAD_REQUEST);
        } else if (request.method() == HttpMethod.GET) {
            session.poll(request.response());
        } else if (request.method() == HttpMethod.POST) {
            receive(request, session);
        } else {
            fail(request, EngineError.BAD_REQUEST);
        }
    }

    /**
     * A POST body over maxPayload is refused with 413 and ends the session, as over a WebSocket; a POST
     * while another is being received is refused with 400 and ends it too, as does one whose connection
     * is lost before its end (docs/protocol.md §12).
     */
    private void receive(HttpServerRequest request, EngineSession session) {
        int max = sessions.settings().maxPayload();
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && length.length() < 12 && Long.parseLong(length.trim()) > max) {
            tooLarge(request, session);
            return;
        }
        if (!session.postStarted()) {
            fail(request, EngineError.BAD_REQUEST);
            session.close("transport error");
            return;
        }
        Buffer body = Buffer.buffer();
        request.handler(chunk -> {
            if (body.length() <= max) {
                body.appendBuffer(chunk);
            }
        });
        // Packets of a body cut short are lost: the session ends as a transport error, and its client
        // connects again (and resumes), rather than going on with a gap in what it sent.
        request.exceptionHandler(lost -> session.close("transport error"));
        request.endHandler(ignored -> {
            if (body.length() > max) {
                tooLarge(request, session);
                return;
            }
            try {
                // Its packets are handled before the next POST may start, which may be on another event loop.
                session.post(body.toString(StandardCharsets.UTF_8));
            } finally {
                session.postEnded();
            }
            request.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/html").end("ok");
        });
        request.resume();
    }

    private static void tooLarge(HttpServerRequest request, EngineSession session) {
        request.response().setStatusCode(413).end();
        session.close("transport error");
    }

    /**
     * Polling from a page of another origin (docs/protocol.md §3, §12): the browser needs CORS headers
     * to read the answers at all. A page the Origin check refuses gets them too, without credentials:
     * it can read nothing but its own refusal, the `connect_error` `FORBIDDEN` that the namespace's
     * CONNECT answers (without them its client would only see a transport error and retry forever).
     */
    private void allowCrossOrigin(HttpServerRequest request) {
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin == null) {
            return;
        }
        HttpServerResponse response = request.response();
        response.putHeader("Access-Control-Allow-Origin", origin);
        if (origins.permits(origin, request.getHeader(HttpHeaders.HOST), request.scheme())) {
            response.putHeader("Access-Control-Allow-Credentials", "true");
        }
        response.putHeader("Vary", "Origin");
        if (request.method() == HttpMethod.OPTIONS) {
            response.putHeader("Access-Control-Allow-Methods", "GET, POST");
            String headers = request.getHeader("Access-Control-Request-Headers");
            if (headers != null) {
                response.putHeader("Access-Control-Allow-Headers", headers);
            }
        }
    }

    /**
     * A session this node does not know. While it stops, that is a session that moved to another node: a
     * sticky proxy that took this node out of rotation for a moment sends its polls here again once the
     * moment is over. 503, processing nothing, lets the proxy pass the request on to the node that holds it.
     */
    private void unknownSession(HttpServerRequest request) {
        if (lifecycle.stopping()) {
            refuseWhileStopping(request);
        } else {
            fail(request, EngineError.UNKNOWN_SID);
        }
    }

    private static void refuseWhileStopping(HttpServerRequest request) {
        request.response()
                .setStatusCode(503)
                .putHeader("Retry-After", "1")
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end();
    }

    private static void fail(HttpServerRequest request, EngineError error) {
        request.response()
                .setStatusCode(400)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(error.body());
    }
}
