package io.editlock.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.editlock.catalog.ConfiguratorStore;
import io.editlock.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/protocol.md §2, the whole table, against a real Redis: every requested type × every held type ×
 * same/other user × where the held lock is (same or other configurator; for item pages: same item
 * and page, same item other page, other item same page).
 */
@QuarkusTest
class ConflictTableTest {

    @Inject
    LockService locks;

    @Inject
    ConfiguratorStore store;

    enum Kind {
        CONFIGURATOR,
        VARIABLES,
        PAGE
    }

    /** Where the requested resource is, relative to the held one. */
    enum Place {
        SAME,
        OTHER_CONFIGURATOR,
        SAME_ITEM_OTHER_PAGE,
        OTHER_ITEM_SAME_PAGE
    }

    @ParameterizedTest(name = "{0} requested while {2} user holds {1} ({3}) -> {4}")
    @CsvSource({
        // requested,  held,          user,  place,                 expected
        "CONFIGURATOR, CONFIGURATOR,  other, SAME,                  LOCKED",
        "CONFIGURATOR, CONFIGURATOR,  other, OTHER_CONFIGURATOR,    GRANTED",
        "CONFIGURATOR, CONFIGURATOR,  same,  SAME,                  GRANTED",
        "CONFIGURATOR, CONFIGURATOR,  same,  OTHER_CONFIGURATOR,    GRANTED",
        "CONFIGURATOR, VARIABLES,     other, SAME,                  LOCKED",
        "CONFIGURATOR, VARIABLES,     other, OTHER_CONFIGURATOR,    GRANTED",
        "CONFIGURATOR, VARIABLES,     same,  SAME,                  GRANTED",
        "CONFIGURATOR, VARIABLES,     same,  OTHER_CONFIGURATOR,    GRANTED",
        "CONFIGURATOR, PAGE,          other, SAME,                  LOCKED",
        "CONFIGURATOR, PAGE,          other, OTHER_CONFIGURATOR,    GRANTED",
        "CONFIGURATOR, PAGE,          same,  SAME,                  GRANTED",
        "CONFIGURATOR, PAGE,          same,  OTHER_CONFIGURATOR,    GRANTED",
        "VARIABLES,    CONFIGURATOR,  other, SAME,                  LOCKED",
        "VARIABLES,    CONFIGURATOR,  other, OTHER_CONFIGURATOR,    GRANTED",
        "VARIABLES,    CONFIGURATOR,  same,  SAME,                  GRANTED",
        "VARIABLES,    CONFIGURATOR,  same,  OTHER_CONFIGURATOR,    GRANTED",
        "VARIABLES,    VARIABLES,     other, SAME,                  LOCKED",
        "VARIABLES,    VARIABLES,     other, OTHER_CONFIGURATOR,    GRANTED",
        "VARIABLES,    VARIABLES,     same,  SAME,                  GRANTED",
        "VARIABLES,    VARIABLES,     same,  OTHER_CONFIGURATOR,    GRANTED",
        "VARIABLES,    PAGE,          other, SAME,                  GRANTED",
        "VARIABLES,    PAGE,          other, OTHER_CONFIGURATOR,    GRANTED",
        "VARIABLES,    PAGE,          same,  SAME,                  GRANTED",
        "VARIABLES,    PAGE,          same,  OTHER_CONFIGURATOR,    GRANTED",
        "PAGE,         CONFIGURATOR,  other, SAME,                  LOCKED",
        "PAGE,         CONFIGURATOR,  other, OTHER_CONFIGURATOR,    GRANTED",
        "PAGE,         CONFIGURATOR,  same,  SAME,                  GRANTED",
        "PAGE,         CONFIGURATOR,  same,  OTHER_CONFIGURATOR,    GRANTED",
        "PAGE,         VARIABLES,     other, SAME,                  GRANTED",
        "PAGE,         VARIABLES,     other, OTHER_CONFIGURATOR,    GRANTED",
        "PAGE,         VARIABLES,     same,  SAME,                  GRANTED",
        "PAGE,         VARIABLES,     same,  OTHER_CONFIGURATOR,    GRANTED",
        "PAGE,         PAGE,          other, SAME,                  LOCKED",
        "PAGE,         PAGE,          other, SAME_ITEM_OTHER_PAGE,  GRANTED",
        "PAGE,         PAGE,          other, OTHER_ITEM_SAME_PAGE,  GRANTED",
        "PAGE,         PAGE,          other, OTHER_CONFIGURATOR,    GRANTED",
        "PAGE,         PAGE,          same,  SAME,                  GRANTED",
        "PAGE,         PAGE,          same,  SAME_ITEM_OTHER_PAGE,  GRANTED",
        "PAGE,         PAGE,          same,  OTHER_ITEM_SAME_PAGE,  GRANTED",
        "PAGE,         PAGE,          same,  OTHER_CONFIGURATOR,    GRANTED",
    })
    void decidesLikeTheProtocolTable(Kind requested, Kind held, String user, Place place, String expected) {
        long configurator = Fixtures.configurator(store);
        long item = Fixtures.item(store, configurator);
        long otherConfigurator = Fixtures.configurator(store);
        long otherConfiguratorItem = Fixtures.item(store, otherConfigurator);
        long sibling = Fixtures.item(store, configurator);

        Holder sara = Fixtures.user("Sara");
        Holder asker = "same".equals(user) ? Fixtures.otherSocket(sara) : Fixtures.user("Omar");
        Resource heldResource = resource(held, configurator, item, Page.FILTERS);
        Resource requestedResource = switch (place) {
            case SAME -> resource(requested, configurator, item, Page.FILTERS);
            case OTHER_CONFIGURATOR -> resource(requested, otherConfigurator, otherConfiguratorItem, Page.FILTERS);
            case SAME_ITEM_OTHER_PAGE -> resource(requested, configurator, item, Page.DEPENDENCIES);
            case OTHER_ITEM_SAME_PAGE -> resource(requested, configurator, sibling, Page.FILTERS);
        };

        assertInstanceOf(AcquireResult.Granted.class, acquire(heldResource, sara), "the first lock must be granted");
        AcquireResult result = acquire(requestedResource, asker);

        if ("LOCKED".equals(expected)) {
            AcquireResult.Refused refused = assertInstanceOf(
                    AcquireResult.Refused.class,
                    result,
                    requestedResource + " must be refused while another user holds " + heldResource);
            assertEquals(sara.userId(), refused.blocking().ownerUserId(), "the refusal must name the holder");
            assertEquals("Sara", refused.blocking().ownerUserName());
            assertEquals(
                    heldResource.canonical(),
                    refused.blocking().resource().canonical(),
                    "the refusal must name the blocking lock");
        } else {
            assertInstanceOf(
                    AcquireResult.Granted.class, result, requestedResource + " must be granted beside " + heldResource);
        }
    }

    private AcquireResult acquire(Resource resource, Holder holder) {
        return locks.acquire(resource, holder).await().atMost(Duration.ofSeconds(10));
    }

    private static Resource resource(Kind kind, long configurator, long item, Page page) {
        return switch (kind) {
            case CONFIGURATOR -> Resource.configurator(configurator);
            case VARIABLES -> Resource.variables(configurator);
            case PAGE -> Resource.itemPage(item, page);
        };
    }
}
