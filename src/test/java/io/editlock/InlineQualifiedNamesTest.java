package io.editlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every type a file uses is imported, never named inline with its package: a reader sees all that a
 * file depends on at its top. Where two types share a simple name, one of them is renamed. Read as
 * text, since the compiled classes do not show how a name was written.
 */
class InlineQualifiedNamesTest {

    private static final List<Path> SOURCES = List.of(
            Path.of("src", "main", "java"), Path.of("src", "test", "java"), Path.of("bench", "src", "main", "java"));
    private static final Pattern QUALIFIED =
            Pattern.compile("\\b(?:java|javax|jakarta|io|org|com)(?:\\.[a-z][a-z0-9_]*)+\\.[A-Z]\\w*");
    private static final Pattern STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");

    @Test
    void typesAreImportedNotNamedInline() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : SOURCES) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                        .sorted()
                        .toList()) {
                    List<String> lines = Files.readAllLines(file);
                    List<Integer> at = inlineNames(lines);
                    at.forEach(n ->
                            found.add(file + ":" + n + ": " + lines.get(n - 1).strip()));
                }
            }
        }
        assertEquals(List.of(), found, "types named with their package instead of imported");
    }

    /** The reader of the sources: code counts, imports, comments, strings and text blocks do not. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "var m = new java.util.TreeMap<String, String>(); | 1",
                "void customize(String name, io.vertx.redis.client.RedisOptions options) { | 1",
                "import java.util.TreeMap; | 0",
                "package io.editlock.rest; | 0",
                "String augmentor = \"io.quarkus.deployment.QuarkusAugmentor\"; | 0",
                "log(\"a \\\" quote, then java.util.List\"); | 0",
                "call(); // as java.util.Map does | 0",
                "/** {@link java.util.Map} */ | 0",
                "config.session().gracePeriod(); | 0",
                "Duration grace = Duration.ofSeconds(10); | 0"
            })
    void namesInCodeCountAndNoOthers(String line, int expected) {
        assertEquals(expected, inlineNames(List.of(line)).size(), line);
    }

    @Test
    void blockCommentsAndTextBlocksDoNotCount() {
        List<String> lines = List.of(
                "/*",
                " * java.util.Map is not imported here",
                " */",
                "String json = \"\"\"",
                "    {\"type\": \"java.util.List\"}",
                "    \"\"\";",
                "java.util.List<String> after;");
        assertEquals(List.of(7), inlineNames(lines));
    }

    /** @return the 1-based numbers of the lines whose code names a type with its package */
    static List<Integer> inlineNames(List<String> lines) {
        List<Integer> found = new ArrayList<>();
        boolean inComment = false;
        boolean inTextBlock = false;
        for (int n = 1; n <= lines.size(); n++) {
            String code = lines.get(n - 1);
            if (inTextBlock) {
                int end = code.indexOf("\"\"\"");
                if (end < 0) {
                    continue;
                }
                code = code.substring(end + 3);
                inTextBlock = false;
            }
            if (inComment) {
                int end = code.indexOf("*/");
                if (end < 0) {
                    continue;
                }
                code = code.substring(end + 2);
                inComment = false;
            }
            String trimmed = code.strip();
            if (trimmed.startsWith("import ") || trimmed.startsWith("package ")) {
                continue;
            }
            int textBlock = code.indexOf("\"\"\"");
            if (textBlock >= 0) {
                code = code.substring(0, textBlock);
                inTextBlock = true;
            }
            code = STRING.matcher(code).replaceAll("\"\"");
            code = withoutComments(code);
            if (code.contains("/*")) {
                code = code.substring(0, code.indexOf("/*"));
                inComment = true;
            }
            Matcher qualified = QUALIFIED.matcher(code);
            if (qualified.find()) {
                found.add(n);
            }
        }
        return found;
    }

    /** Drops {@code // …} and whole {@code /* … *\/} comments of one line (its strings already emptied). */
    private static String withoutComments(String code) {
        String rest = code;
        int open;
        while ((open = rest.indexOf("/*")) >= 0 && rest.indexOf("*/", open + 2) >= 0) {
            rest = rest.substring(0, open) + rest.substring(rest.indexOf("*/", open + 2) + 2);
        }
        int line = rest.indexOf("//");
        return line < 0 ? rest : rest.substring(0, line);
    }
}
