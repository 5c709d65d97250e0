// configurator.js — the open configurator: watching its locks, loading it (again when it changed),
// and the list of all of them on the home page.

import { ApiError } from '../api.js';
import { normalizeConfigurator } from '../model.js';

const NOT_FOUND = 'This configurator does not exist (any more).';

/** @param {import('./context.js').App} app */
export function createConfigurator(app) {
  const { state } = app;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let reloadTimer;

  /**
   * Loads the open configurator (again).
   * @returns {Promise<boolean>} whether state.view is now what the server has (false: it could not be read,
   *   or another configurator is open by now)
   */
  async function reload() {
    const id = state.route.configuratorId;
    if (!id || !app.session) {
      return false;
    }
    let read = false;
    try {
      const body = await app.session.api.configurator(id);
      if (state.route.configuratorId === id) {
        state.view = normalizeConfigurator(body);
        state.viewError = null;
        read = true;
      }
    } catch (failure) {
      const error = /** @type {Error} */ (failure);
      if (state.route.configuratorId === id) {
        state.viewError = error instanceof ApiError && error.status === 404
          ? NOT_FOUND
          : `Could not load this configurator: ${error.message}`;
      }
    }
    app.render();
    return read;
  }

  /** Loads it again soon: many changes in a row, one load. */
  function scheduleReload() {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(reload, 120);
  }

  return {
    reload,
    scheduleReload,

    /**
     * Stops watching the configurator `from`, then loads and watches `to` (if any).
     * @param {number | undefined} from
     * @param {number | undefined} to
     */
    async switchTo(from, to) {
      const client = app.session?.client;
      if (from && client) {
        client.unwatch(from).catch(() => {});
      }
      state.view = null;
      state.viewError = null;
      state.locks = [];
      state.drafts.clear();
      state.draftBases.clear();
      if (!to || !client) {
        return;
      }
      app.render();
      await Promise.all([
        reload(),
        client.watch(to).catch((failure) => {
          if (failure.code === 'NOT_FOUND') {
            state.viewError = NOT_FOUND;
          }
        }),
      ]);
    },

    /** The home page's list of every configurator. */
    async loadList() {
      if (!app.session) {
        return;
      }
      try {
        state.configurators = await app.session.api.listConfigurators();
      } catch (failure) {
        state.configurators = state.configurators || [];
        app.toast(`Could not load the configurators: ${/** @type {Error} */ (failure).message}`, 'error');
      }
      app.render();
    },

    /**
     * A REST write changed a watched configurator: load it again (or leave it if it was deleted).
     * @param {{configuratorId: number, entity: string, op: string}} detail
     */
    contentChanged({ configuratorId, entity, op }) {
      if (configuratorId !== state.route.configuratorId) {
        return;
      }
      if (entity === 'configurator' && op === 'deleted') {
        app.toast('This configurator was deleted.', 'error');
        location.hash = '#/';
        return;
      }
      scheduleReload();
    },

    /**
     * We believed we held a lock the server says someone else has: our view of the locks is stale
     * (a lost message, a half-open socket). Ask for the current state; a dead socket then times out
     * and the client reconnects by itself.
     */
    resync() {
      const id = state.route.configuratorId;
      if (app.session && id) {
        app.session.client.watch(id).catch(() => {});
      }
    },
  };
}
