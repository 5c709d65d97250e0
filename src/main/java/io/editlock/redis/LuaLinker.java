package io.editlock.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts in front of a script the library functions it reaches, and no others. Redis keeps a loaded
 * script compiled, but every run executes its top level again: each {@code local function} of a
 * library in front of it becomes a new closure on every EVALSHA, used or not. A lock request's script
 * would define the forty functions of three libraries to call a dozen of them.
 *
 * <p>Libraries are written as top-level {@code local function name(...)} blocks that close with an
 * {@code end} at the start of a line, each with the comment right above it. A function stays when the
 * script, or a function that stays, names it; top-level lines of a library that are neither comments
 * nor functions always stay. Order is kept: a Lua local is visible only after its definition.
 */
final class LuaLinker {

    private static final Pattern FUNCTION_START = Pattern.compile("^local function (\\w+)\\(");

    private LuaLinker() {}

    /**
     * @param libraries the libraries' texts, each after those it needs
     * @param script the script's own text
     * @return the script with the library functions it reaches in front of it
     */
    static String link(List<String> libraries, String script) {
        List<Chunk> chunks = new ArrayList<>();
        for (String library : libraries) {
            chunks.addAll(chunksOf(library));
        }
        // A function can only name functions defined before it: deciding from the last one back,
        // every function that could name this one has already been decided.
        boolean[] kept = new boolean[chunks.size()];
        for (int i = chunks.size() - 1; i >= 0; i--) {
            Chunk chunk = chunks.get(i);
            kept[i] = chunk.name == null || named(chunk.name, script) || namedByKept(chunk.name, chunks, kept, i);
        }
        StringBuilder linked = new StringBuilder();
        for (int i = 0; i < chunks.size(); i++) {
            if (kept[i]) {
                linked.append(chunks.get(i).text);
            }
        }
        return linked.append(script).toString();
    }

    private static boolean namedByKept(String name, List<Chunk> chunks, boolean[] kept, int definedAt) {
        for (int j = definedAt + 1; j < chunks.size(); j++) {
            if (kept[j] && named(name, chunks.get(j).text)) {
                return true;
            }
        }
        return false;
    }

    private static boolean named(String name, String text) {
        return Pattern.compile("(?<![\\w.:])" + Pattern.quote(name) + "(?!\\w)")
                .matcher(text)
                .find();
    }

    /**
     * A library cut into its functions (each with the comment lines right above it) and the other
     * top-level lines, which carry no name and always stay. Blank lines and comments between them go.
     */
    static List<Chunk> chunksOf(String library) {
        List<Chunk> chunks = new ArrayList<>();
        List<String> comment = new ArrayList<>();
        String[] lines = library.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            Matcher start = FUNCTION_START.matcher(line);
            if (start.find()) {
                StringBuilder text = new StringBuilder();
                comment.forEach(c -> text.append(c).append('\n'));
                comment.clear();
                int end = i;
                while (end < lines.length && !lines[end].equals("end")) {
                    end++;
                }
                if (end == lines.length) {
                    throw new IllegalArgumentException(
                            "function " + start.group(1) + " has no 'end' at the start of a line");
                }
                for (int j = i; j <= end; j++) {
                    text.append(lines[j]).append('\n');
                }
                chunks.add(new Chunk(start.group(1), text.toString()));
                i = end;
            } else if (line.startsWith("--")) {
                comment.add(line);
            } else if (line.isBlank()) {
                comment.clear();
            } else {
                comment.clear();
                chunks.add(new Chunk(null, line + "\n"));
            }
        }
        return chunks;
    }

    /** A library function (or, without a name, a top-level line) and its text. */
    record Chunk(String name, String text) {}
}
