package io.editlock.support;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.awaitility.core.ConditionFactory;

/**
 * A WebSocket client of {@code /locking} written by hand on a plain socket, for what the JDK client
 * will not do: it never answers a ping (nor the server's close frame, like a peer that is gone),
 * and it can send any close code and fragmented messages. Server frames are read on a thread of
 * its own; text frames are kept as JSON.
 */
public final class RawWsClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int TEXT = 0x1;
    private static final int CONTINUATION = 0x0;
    private static final int CLOSE = 0x8;
    private static final int PING = 0x9;

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger pings = new AtomicInteger();
    /** The code of the server's close frame (1005 when it had none). */
    private final CompletableFuture<Integer> closeFrame = new CompletableFuture<>();
    /** Completes when the server ended the TCP connection. */
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    private RawWsClient(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    /** Opens {@code /locking} with {@code Authorization: Bearer token} and starts reading. */
    public static RawWsClient connect(URI base, String token) {
        try {
            RawWsClient client = new RawWsClient(new Socket(base.getHost(), base.getPort()));
            client.handshake(base.getHost() + ":" + base.getPort(), token);
            Thread reader = new Thread(client::readLoop, "raw-ws-reader");
            reader.setDaemon(true);
            reader.start();
            return client;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Opens {@code /locking} like {@link #connect}, but reads nothing after the handshake until
     * {@link #startReading()}, on a socket with a small receive buffer: a client that does not read,
     * whose TCP window is soon full, so that what the server sends piles up on the server.
     */
    public static RawWsClient connectWithoutReading(URI base, String token) {
        try {
            Socket socket = new Socket();
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()));
            RawWsClient client = new RawWsClient(socket);
            client.handshake(base.getHost() + ":" + base.getPort(), token);
            return client;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The status the server answers a {@code /locking} upgrade with (101 when it opened the socket),
     * for requests the JDK client will not send: any {@code Host} among {@code headers}. An opened
     * socket is dropped at once.
     */
    public static int upgradeStatus(URI base, Map<String, String> headers) {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        StringBuilder request = new StringBuilder("GET /locking HTTP/1.1\r\n")
                .append("Upgrade: websocket\r\n")
                .append("Connection: Upgrade\r\n")
                .append("Sec-WebSocket-Key: ")
                .append(Base64.getEncoder().encodeToString(nonce))
                .append("\r\n")
                .append("Sec-WebSocket-Version: 13\r\n");
        headers.forEach(
                (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String head = readHead(socket.getInputStream());
            return Integer.parseInt(head.split(" ", 3)[1]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts reading what the server sent (after {@link #connectWithoutReading}). */
    public RawWsClient startReading() {
        Thread reader = new Thread(this::readLoop, "raw-ws-reader");
        reader.setDaemon(true);
        reader.start();
        return this;
    }

    private void handshake(String host, String token) throws IOException {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        String request = "GET /locking HTTP/1.1\r\n"
                + "Host: " + host + "\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n"
                + "Sec-WebSocket-Version: 13\r\n"
                + "Authorization: Bearer " + token + "\r\n\r\n";
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = readHead(in);
        if (!head.startsWith("HTTP/1.1 101")) {
            throw new IllegalStateException("the upgrade was refused: " + head);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the server ended the connection during the handshake");
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private void readLoop() {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        try {
            while (true) {
                int first = in.readUnsignedByte();
                int second = in.readUnsignedByte();
                int opcode = first & 0x0F;
                boolean fin = (first & 0x80) != 0;
                long length = second & 0x7F;
                if (length == 126) {
                    length = in.readUnsignedShort();
                } else if (length == 127) {
                    length = in.readLong();
                }
                byte[] payload = new byte[(int) length];
                in.readFully(payload);
                if (opcode == TEXT || opcode == CONTINUATION) {
                    message.write(payload);
                    if (fin) {
                        received.add(parse(message.toString(StandardCharsets.UTF_8)));
                        message.reset();
                    }
                } else if (opcode == PING) {
                    pings.incrementAndGet(); // never answered: that is the point of this client
                } else if (opcode == CLOSE) {
                    closeFrame.complete(payload.length >= 2 ? ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF) : 1005);
                }
            }
        } catch (IOException e) {
            closeFrame.complete(-1);
            ended.complete(null);
        }
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the server sent a frame that is not JSON: " + text, e);
        }
    }

    public boolean closeFrameReceived() {
        return closeFrame.isDone();
    }

    /** Sends one text frame. */
    public void sendText(String text) {
        sendFrame(TEXT, true, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends one text message cut into frames of at most {@code frameBytes} each. */
    public void sendFragmented(String text, int frameBytes) {
        byte[] all = text.getBytes(StandardCharsets.UTF_8);
        for (int offset = 0; offset < all.length; offset += frameBytes) {
            int length = Math.min(frameBytes, all.length - offset);
            byte[] part = Arrays.copyOfRange(all, offset, offset + length);
            sendFrame(offset == 0 ? TEXT : CONTINUATION, offset + length == all.length, part);
        }
    }

    /** Sends a close frame with any code, e.g. 1001 (going away), which the JDK client cannot send. */
    public void sendClose(int code) {
        sendFrame(CLOSE, true, new byte[] {(byte) (code >> 8), (byte) code});
    }

    /** Sends a close frame that carries no code, as a browser's {@code close()} without arguments does. */
    public void sendCloseWithoutCode() {
        sendFrame(CLOSE, true, new byte[0]);
    }

    private synchronized void sendFrame(int opcode, boolean fin, byte[] payload) {
        try {
            ByteArrayOutputStream frame = new ByteArrayOutputStream();
            frame.write((fin ? 0x80 : 0) | opcode);
            if (payload.length < 126) {
                frame.write(0x80 | payload.length);
            } else if (payload.length <= 0xFFFF) {
                frame.write(0x80 | 126);
                frame.write(payload.length >> 8);
                frame.write(payload.length);
            } else {
                frame.write(0x80 | 127);
                for (int shift = 56; shift >= 0; shift -= 8) {
                    frame.write((int) ((long) payload.length >> shift));
                }
            }
            byte[] mask = new byte[4];
            RANDOM.nextBytes(mask);
            frame.write(mask);
            for (int i = 0; i < payload.length; i++) {
                frame.write(payload[i] ^ mask[i % 4]);
            }
            out.write(frame.toByteArray());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public JsonNode awaitEvent(Predicate<JsonNode> match) {
        return soon().atMost(WAIT)
                .until(() -> received.stream().filter(match).findFirst(), Optional::isPresent)
                .get();
    }

    public JsonNode awaitEvent(String event) {
        return awaitEvent(frame -> event.equals(frame.path("event").asText()));
    }

    /** Sends a frame with this ref inside and waits for the reply carrying it. */
    public JsonNode request(String frame, String ref) {
        sendText(frame);
        return awaitEvent(reply -> ref.equals(reply.path("ref").asText(null)));
    }

    public JsonNode welcome() {
        return awaitEvent("welcome");
    }

    /** Every frame received so far, in the order they came. */
    public List<JsonNode> received() {
        return received;
    }

    public int pingsReceived() {
        return pings.get();
    }

    /** The code of the close frame the server sent; waits at most {@code atMost}. */
    public int awaitCloseFrame(Duration atMost) {
        soon().atMost(atMost).until(closeFrame::isDone);
        return closeFrame.join();
    }

    /** Waits until the server ended the TCP connection. */
    public void awaitEnded(Duration atMost) {
        soon().atMost(atMost).until(ended::isDone);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    /** Checks at once and then often: a reply usually arrives within milliseconds (Awaitility's default first look is after 100 ms). */
    static ConditionFactory soon() {
        return await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10));
    }
}
