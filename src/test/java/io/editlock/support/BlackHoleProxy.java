package io.editlock.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of Redis that can turn the connections open so far into black holes: they stay
 * open and swallow every byte in both directions, as a half-open connection does (a peer gone without
 * a FIN or RST, a stuck failover). Connections made afterwards work. It can also turn a connection
 * into a black hole as it sends SUBSCRIBE: the subscription is neither confirmed nor refused.
 */
public final class BlackHoleProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int upstreamPort;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private volatile boolean swallowSubscribes;

    private BlackHoleProxy(int upstreamPort) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.upstreamPort = upstreamPort;
        Thread accepting = new Thread(this::accept, "black-hole-proxy");
        accepting.setDaemon(true);
        accepting.start();
    }

    public static BlackHoleProxy to(int upstreamPort) {
        try {
            return new BlackHoleProxy(upstreamPort);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open the proxy", e);
        }
    }

    public String url() {
        return "redis://127.0.0.1:" + server.getLocalPort();
    }

    /**
     * While on, a connection that sends SUBSCRIBE swallows it and whatever follows, in both directions, and
     * stays open until the client closes it.
     */
    public void swallowSubscribes(boolean on) {
        swallowSubscribes = on;
    }

    /** Connections swallowed at a SUBSCRIBE: {@code closed} the ones their client has closed since, else the open ones. */
    public long swallowedSubscribes(boolean closed) {
        return links.stream()
                .filter(link -> link.atSubscribe && link.clientGone == closed)
                .count();
    }

    /** Every connection open now swallows whatever is sent on it, from now on, and never closes. */
    public void swallowOpenConnections() {
        links.forEach(link -> link.swallowing = true);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        links.forEach(Link::close);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                Link link = new Link(client, upstream);
                links.add(link);
                pump(link, client, upstream, true);
                pump(link, upstream, client, false);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Link link, Socket from, Socket to, boolean fromClient) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[16384];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int read;
                        while ((read = in.read(buffer)) >= 0) {
                            if (fromClient && swallowSubscribes && namesSubscribe(buffer, read)) {
                                link.atSubscribe = true;
                                link.swallowing = true;
                            }
                            if (!link.swallowing) {
                                out.write(buffer, 0, read);
                                out.flush();
                            }
                        }
                    } catch (IOException ignored) {
                        // the link ends
                    }
                    if (fromClient) {
                        link.clientGone = true;
                    }
                    if (fromClient || !link.swallowing) {
                        link.close();
                    }
                },
                "black-hole-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static boolean namesSubscribe(byte[] buffer, int length) {
        return new String(buffer, 0, length, StandardCharsets.US_ASCII)
                .toUpperCase(Locale.ROOT)
                .contains("SUBSCRIBE");
    }

    private static final class Link {
        final Socket client;
        final Socket upstream;
        volatile boolean swallowing;
        volatile boolean atSubscribe;
        volatile boolean clientGone;

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void close() {
            try {
                client.close();
                upstream.close();
            } catch (IOException ignored) {
                // closed already
            }
        }
    }
}
