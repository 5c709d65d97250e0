package io.editlock.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One Lua script from {@code src/main/resources/lua/}, with the libraries it uses in front (see
 * {@link LuaLibrary}), and the SHA-1 under which Redis caches it. Every script is one of
 * {@link Scripts}.
 */
public final class LuaScript {

    private final String name;
    private final String source;
    private final String sha1;
    private final List<LuaLibrary> libraries;

    private LuaScript(String name, List<LuaLibrary> libraries) {
        this.name = name;
        this.libraries = libraries;
        StringBuilder text = new StringBuilder();
        for (LuaLibrary library : libraries) {
            text.append(read(library.file())).append('\n');
        }
        this.source = text.append(read(name)).toString();
        this.sha1 = sha1(source);
    }

    /**
     * @param name file name under {@code lua/} without {@code .lua}, e.g. {@code acquire_lock}
     * @param uses the libraries the script calls into; what they need comes along
     */
    static LuaScript of(String name, LuaLibrary... uses) {
        Set<LuaLibrary> ordered = new LinkedHashSet<>();
        for (LuaLibrary library : uses) {
            addWithNeeds(library, ordered);
        }
        return new LuaScript(name, List.copyOf(ordered));
    }

    private static void addWithNeeds(LuaLibrary library, Set<LuaLibrary> ordered) {
        for (LuaLibrary needed : library.needs()) {
            addWithNeeds(needed, ordered);
        }
        ordered.add(library);
    }

    public String name() {
        return name;
    }

    /** The script with its libraries, as Redis runs it. */
    public String source() {
        return source;
    }

    public String sha1() {
        return sha1;
    }

    /** The libraries in front of the script, in the order they come. */
    public List<LuaLibrary> libraries() {
        return new ArrayList<>(libraries);
    }

    @Override
    public String toString() {
        return name;
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
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
