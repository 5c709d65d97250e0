// navigation.js — the route (`#/c/12/items/5/filters`) and what opening it means: the configurator
// it is in, and the edit session of the page it names.

import { resourceKey } from '../editlock-client.js';

/**
 * `#/`, `#/c/12`, `#/c/12/structure`, `#/c/12/variables`, `#/c/12/items/5/filters`
 * @param {string} hash
 * @returns {import('./store.js').State['route']}
 */
export function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  /** @param {string | undefined} text */
  const id = (text) => (/^\d{1,15}$/.test(text || '') ? Number(text) : null);
  const configuratorId = id(parts[1]);
  if (parts[0] !== 'c' || configuratorId === null) {
    return { view: 'home' };
  }
  if (parts[2] === 'structure' || parts[2] === 'variables') {
    return { view: parts[2], configuratorId };
  }
  const itemId = id(parts[3]);
  if (parts[2] === 'items' && itemId !== null && ['filters', 'dependencies', 'attributes'].includes(parts[4])) {
    return { view: 'item', configuratorId, itemId, page: parts[4] };
  }
  return { view: 'overview', configuratorId };
}

/**
 * The lockable resource a route shows, if any.
 * @param {import('./store.js').State['route']} route
 * @returns {import('../editlock-client.js').Resource | null}
 */
export function resourceOf(route) {
  switch (route.view) {
    case 'structure': return { type: 'configurator', configuratorId: route.configuratorId };
    case 'variables': return { type: 'variables', configuratorId: route.configuratorId };
    case 'item': return { type: 'item-subresource', configuratorId: route.configuratorId, itemId: route.itemId,
      page: /** @type {import('../editlock-client.js').Page} */ (route.page) };
    default: return null;
  }
}

/** @param {import('./context.js').App} app */
export function createNavigation(app) {
  const { state } = app;
  /** Counts navigations, so that one that waited can tell whether a later one has taken over. */
  let generation = 0;

  /** Follows `location.hash`: leaves the page before, switches the configurator, opens the page. */
  async function navigate() {
    if (!state.auth) {
      return;
    }
    const current = ++generation;
    const previous = state.route;
    const route = parseRoute(location.hash);
    state.route = route;
    const resource = resourceOf(route);
    const key = resource ? resourceKey(resource) : null;

    if (state.edit && state.edit.key !== key) {
      app.edit.leave(state.edit);
    }
    if (previous.configuratorId !== route.configuratorId) {
      await app.configurator.switchTo(previous.configuratorId, route.configuratorId);
      if (current !== generation) {
        return; // the user went on meanwhile: opening this route's page would lock a page nobody looks at
      }
    }
    if (route.view === 'home') {
      app.configurator.loadList();
    }
    if (resource && key && (!state.edit || state.edit.key !== key)) {
      app.edit.open(key, resource);
    } else if (!resource) {
      state.edit = null;
    }
    app.render();
  }

  return {
    navigate,
    /** @param {string} hash */
    go(hash) {
      if (location.hash === hash) {
        navigate();
      } else {
        location.hash = hash;
      }
    },
  };
}
