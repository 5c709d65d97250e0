package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The canonical names of lockable pages ({@code configurator:12}, {@code configurator:12:variables},
 * {@code item:5:filters}), as a client names a lock to break in a URL: plain JUnit, no server. A
 * name that is not exactly one of these forms names nothing.
 */
class ResourceCanonicalTest {

    private static final long MAX_ID = 9_007_199_254_740_991L;

    static Stream<Arguments> validNames() {
        return Stream.of(
                Arguments.of("configurator:12", Resource.configurator(12)),
                Arguments.of("configurator:12:variables", Resource.variables(12)),
                Arguments.of("item:5:filters", Resource.itemPage(5, Page.FILTERS)),
                Arguments.of("item:5:dependencies", Resource.itemPage(5, Page.DEPENDENCIES)),
                Arguments.of("item:5:attributes", Resource.itemPage(5, Page.ATTRIBUTES)),
                Arguments.of("configurator:1", Resource.configurator(1)),
                Arguments.of("configurator:" + MAX_ID, Resource.configurator(MAX_ID)),
                Arguments.of("configurator:" + MAX_ID + ":variables", Resource.variables(MAX_ID)),
                Arguments.of("item:" + MAX_ID + ":filters", Resource.itemPage(MAX_ID, Page.FILTERS)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validNames")
    void aCanonicalNameIsParsedToItsResource(String name, Resource expected) {
        assertEquals(Optional.of(expected), Resource.parseCanonical(name), "the resource named " + name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validNames")
    void aResourceIsNamedByTheTextItWasParsedFrom(String name, Resource expected) {
        assertEquals(name, expected.canonical(), "canonical() must give back the name " + name + " is parsed from");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "",
                "configurator",
                "configurator:",
                "configurator:0",
                "configurator:-1",
                "configurator:+1",
                "configurator:1.5",
                "configurator:9007199254740992",
                "configurator:12345678901234567",
                "configurator:99999999999999999999",
                "configurator:abc",
                "Configurator:12",
                "CONFIGURATOR:12",
                " configurator:12",
                "configurator:12 ",
                "configurator:12:",
                "configurator:12:variable",
                "configurator:12:Variables",
                "configurator:12:filters",
                "variables:12",
                "item:5",
                "item:5:",
                "item:0:filters",
                "item:9007199254740992:filters",
                "item:5:Filters",
                "item:5:notes",
                "item:5:filters:1",
                "item::filters",
                "item:x:filters",
                "configurator:12\n"
            })
    void anythingElseNamesNothing(String name) {
        assertEquals(Optional.empty(), Resource.parseCanonical(name), "\"" + name + "\" must name no resource");
    }
}
