package io.editlock.support;

import io.editlock.redis.embedded.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Commands a test sends to its Redis as the default user, the administrator where the ACL keeps that
 * user on ({@link ShippedRedisAcl#withAdminDefaultUser}): set-up and faults that editlock's own user may
 * not cause (ACL changes, {@code CLIENT KILL}).
 */
public final class RedisAdmin {

    private RedisAdmin() {}

    /** One command as Redis's default user (the administrator here), its reply as RESP text. */
    public static String command(RedisProcess redis, String... command) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", redis.port())) {
            socket.setSoTimeout(5000);
            StringBuilder request = new StringBuilder("*" + command.length + "\r\n");
            for (String part : command) {
                request.append('$')
                        .append(part.getBytes(StandardCharsets.UTF_8).length)
                        .append("\r\n")
                        .append(part)
                        .append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            // A bulk reply ($<length>) may come in several reads; the others fit in one.
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int read;
            while ((read = in.read(buffer)) > 0) {
                reply.write(buffer, 0, read);
                if (complete(reply.toString(StandardCharsets.UTF_8))) {
                    break;
                }
            }
            return reply.toString(StandardCharsets.UTF_8).strip();
        }
    }

    private static boolean complete(String reply) {
        int lineEnd = reply.indexOf("\r\n");
        if (lineEnd < 0) {
            return false;
        }
        if (!reply.startsWith("$")) {
            return true;
        }
        int length = Integer.parseInt(reply.substring(1, lineEnd));
        return length < 0 || reply.getBytes(StandardCharsets.UTF_8).length >= lineEnd + 2 + length + 2;
    }
}
