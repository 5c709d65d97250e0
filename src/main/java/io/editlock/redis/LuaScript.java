package io.editlock.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One Lua script from {@code src/main/resources/lua/}, with the shared helpers of {@code lib.lua}
 * in front, and the SHA-1 under which Redis caches it.
 */
public final class LuaScript {

    private static final String LIBRARY = "lib";

    private final String name;
    private final String source;
    private final String sha1;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha1 = sha1(source);
    }

    /** @param name file name under {@code lua/} without {@code .lua}, e.g. {@code acquire_lock} */
    public static LuaScript load(String name) {
        return new LuaScript(name, read(LIBRARY) + "\n" + read(name));
    }

    /**
     * A script that also uses helpers of its own feature: {@code libraries} (file names under
     * {@code lua/}) go between {@code lib.lua} and the script.
     */
    public static LuaScript load(String name, String... libraries) {
        StringBuilder source = new StringBuilder(read(LIBRARY)).append('\n');
        for (String library : libraries) {
            source.append(read(library)).append('\n');
        }
        return new LuaScript(name, source.append(read(name)).toString());
    }

    public String name() {
        return name;
    }

    public String source() {
        return source;
    }

    public String sha1() {
        return sha1;
    }

    private static String read(String name) {
        String path = "lua/" + name + ".lua";
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing script " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path, e);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
