package io.editlock.redis;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Default;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready = this node hears every channel it subscribes to. A node that hears no lock events would show
 * its users pages as they were, so it takes no new users while a subscription is down: for the moment
 * of a reconnect after a cut, or for as long as Redis refuses it (an ACL without editlock's channels).
 */
@Readiness
@Default // also injected where subscriptions start: a readiness check is not a default bean by itself
@ApplicationScoped
public class ListeningReadiness implements HealthCheck {

    private final Set<LastingSubscription> subscriptions = ConcurrentHashMap.newKeySet();

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
        HealthCheckResponseBuilder response = HealthCheckResponse.named("editlock event subscriptions")
                .status(deaf.isEmpty())
                .withData("subscriptions", subscriptions.size());
        return deaf.isEmpty()
                ? response.build()
                : response.withData("not listening", String.join(", ", deaf)).build();
    }
}
