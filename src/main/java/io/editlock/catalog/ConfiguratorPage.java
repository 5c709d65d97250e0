package io.editlock.catalog;

import java.util.List;
import java.util.Optional;

/**
 * One page of {@code GET /api/configurators}: the configurators, and the id to continue after when
 * more follow.
 */
public record ConfiguratorPage(List<Configurator> configurators, Optional<Long> nextAfter) {}
