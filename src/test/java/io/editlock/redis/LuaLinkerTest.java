package io.editlock.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which library functions come in front of a script, and in which order. */
class LuaLinkerTest {

    private static final String CLOCK = """
            -- the clock library

            -- Redis's clock
            local function now_ms()
              return 1
            end
            """;

    private static final String LOCKS = """
            -- lock records

            local function decode(raw)
              return cjson.decode(raw)
            end

            -- the holder of a record
            local function holder(raw)
              return decode(raw).u
            end

            local function expired(raw)
              return decode(raw).e < now_ms()
            end
            """;

    @Test
    void aScriptGetsOnlyTheFunctionsItNamesAndWhatThoseName() {
        String linked = LuaLinker.link(List.of(CLOCK, LOCKS), "return holder(ARGV[1])\n");
        assertEquals("""
                local function decode(raw)
                  return cjson.decode(raw)
                end
                -- the holder of a record
                local function holder(raw)
                  return decode(raw).u
                end
                return holder(ARGV[1])
                """, linked);
    }

    @Test
    void aFunctionNamedOnlyByAFunctionThatStaysStaysBeforeIt() {
        String linked = LuaLinker.link(List.of(CLOCK, LOCKS), "if expired(ARGV[1]) then return 0 end\n");
        assertEquals("""
                -- Redis's clock
                local function now_ms()
                  return 1
                end
                local function decode(raw)
                  return cjson.decode(raw)
                end
                local function expired(raw)
                  return decode(raw).e < now_ms()
                end
                if expired(ARGV[1]) then return 0 end
                """, linked);
    }

    @Test
    void aFieldOrMethodOfTheSameNameIsNotACall() {
        String linked = LuaLinker.link(List.of(LOCKS), "return cjson.decode(ARGV[1]), t:holder()\n");
        assertEquals("return cjson.decode(ARGV[1]), t:holder()\n", linked);
    }

    @Test
    void aFunctionPassedAsAValueStays() {
        String linked = LuaLinker.link(List.of(CLOCK), "local f = now_ms\nreturn f()\n");
        assertEquals("""
                -- Redis's clock
                local function now_ms()
                  return 1
                end
                local f = now_ms
                return f()
                """, linked);
    }

    @Test
    void topLevelLinesThatAreNotFunctionsAlwaysStay() {
        String library = """
                local LIMIT = 10

                local function unused()
                  return LIMIT
                end
                """;
        assertEquals("local LIMIT = 10\nreturn 1\n", LuaLinker.link(List.of(library), "return 1\n"));
    }

    @Test
    void aFunctionWithoutAnEndAtTheStartOfALineIsRefused() {
        String library = "local function broken()\n  return 1\n  end\n";
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> LuaLinker.link(List.of(library), "return 1\n"));
        assertEquals("function broken has no 'end' at the start of a line", refused.getMessage());
    }
}
