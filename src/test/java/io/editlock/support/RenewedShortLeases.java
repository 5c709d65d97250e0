package io.editlock.support;

import java.util.HashMap;
import java.util.Map;

/**
 * Short leases (4 s) that the node renews every second while their sockets live, as in production:
 * what a live socket keeps stays until it ends, what it no longer keeps ends with its lease soon after,
 * and a renewal a few seconds late on a busy machine still comes in time.
 */
public class RenewedShortLeases extends ShortLeases {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> settings = new HashMap<>(super.getConfigOverrides());
        settings.put("editlock.lease.ttl", "4s");
        settings.put("editlock.lease.renew-interval", "1s");
        return settings;
    }
}
