package io.editlock.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking Redis client (RESP2): one command, one round trip. Enough for CONFIG
 * RESETSTAT, INFO, SCRIPT LOAD and the seed design's GETs and SETs, without another dependency.
 */
final class Resp implements Closeable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    Resp(String host, int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), 5_000);
        socket.setSoTimeout(60_000);
        out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** @return String (simple or bulk), Long, null, or List for arrays; a Redis error is thrown */
    Object call(String... args) throws IOException {
        write(args);
        out.flush();
        return read();
    }

    private void write(String... args) throws IOException {
        out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
    }

    private Object read() throws IOException {
        int type = in.read();
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IOException("Redis: " + line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length);
                in.read();
                in.read();
                return new String(bytes, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP type " + type);
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            line.append((char) c);
        }
        in.read();
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
