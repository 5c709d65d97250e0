package io.editlock.redis;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Default;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

/**
 * Ready = this node hears every channel it subscribes to. A node that hears no lock events would show
 * its users pages as they were, so it takes no new users while a subscription is down: for the moment
 * of a reconnect after a cut, or for as long as Redis refuses it (an ACL without editlock's channels).
 *
 * <p>The public readiness page names what the node does not hear in plain words ({@code lock events},
 * {@code inbox}); the channels' names, which carry the key prefix and the node's id, go to the node's
 * log, once each time the set of them changes.
 */
@Readiness
@Default // also injected where subscriptions start: a readiness check is not a default bean by itself
@ApplicationScoped
public class ListeningReadiness implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(ListeningReadiness.class);

    private final Set<LastingSubscription> subscriptions = ConcurrentHashMap.newKeySet();
    /** The channels not heard at the last answer: what the log was last told. */
    private final AtomicReference<List<String>> lastDeaf = new AtomicReference<>(List.of());

    /** @return {@code subscription}, counted from now on */
    public LastingSubscription watch(LastingSubscription subscription) {
        subscriptions.add(subscription);
        return subscription;
    }

    /** Whether every subscription stands: while one does not, its catch-up is still to come. */
    public boolean hearsAll() {
        return subscriptions.stream().allMatch(LastingSubscription::active);
    }

    @Override
    public HealthCheckResponse call() {
        List<String> deaf = subscriptions.stream()
                .filter(subscription -> !subscription.active())
                .map(LastingSubscription::channel)
                .sorted()
                .toList();
        logChange(deaf);
        HealthCheckResponseBuilder response = HealthCheckResponse.named("editlock event subscriptions")
                .status(deaf.isEmpty())
                .withData("subscriptions", subscriptions.size());
        return deaf.isEmpty()
                ? response.build()
                : response.withData(
                                "not listening",
                                String.join(
                                        ", ",
                                        deaf.stream()
                                                .map(ListeningReadiness::kind)
                                                .sorted()
                                                .toList()))
                        .build();
    }

    private void logChange(List<String> deaf) {
        List<String> before = lastDeaf.getAndSet(deaf);
        if (before.equals(deaf)) {
            return;
        }
        if (deaf.isEmpty()) {
            LOG.info("listening to every channel again: ready");
        } else {
            LOG.warnf("not ready, not listening to %s", String.join(", ", deaf));
        }
    }

    /** A channel's kind, without the key prefix and the node's id: {@code editlock:node:<id>:inbox} is the inbox. */
    static String kind(String channel) {
        return channel.substring(channel.lastIndexOf(':') + 1).replace('-', ' ');
    }
}
