// configurator.js — the open configurator: watching its locks, loading it (again when it changed),
// and the list of all of them on the home page.

import { ApiError } from '../api.js';
import { normalizeConfigurator } from '../model.js';

const NOT_FOUND = 'This configurator does not exist (any more).';

/** The waits before the open configurator is read again when reading it failed for another reason than its absence. */
const REREAD_DELAYS_MS = [1000, 2000, 4000];

/**
 * @param {import('./context.js').App} app
 * @param {{rereadDelaysMs?: number[]}} [options]
 */
export function createConfigurator(app, { rereadDelaysMs = REREAD_DELAYS_MS } = {}) {
  const { state } = app;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let reloadTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let rereadTimer;
  /** reads failed in a row: the next wait's index */
  let failedReads = 0;

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
    clearTimeout(rereadTimer);
    let read = false;
    try {
      const body = await app.session.api.configurator(id);
      if (state.route.configuratorId === id) {
        Object.assign(state, { view: normalizeConfigurator(body), viewError: null, viewNotice: null });
        failedReads = 0;
        read = true;
      }
    } catch (failure) {
      if (state.route.configuratorId === id) {
        readFailed(/** @type {Error} */ (failure));
      }
    }
    app.render();
    return read;
  }

  /**
   * Only a 404 says the configurator is gone. Any other failure (a proxy's 502, a moment offline) leaves what is
   * shown, and what the user typed into it, in place: it is read again after each of the waits, then the user may
   * try again.
   * @param {Error} error
   */
  function readFailed(error) {
    if (error instanceof ApiError && error.status === 404) {
      // Nothing of it stays listed: the sidebar's items and pages would lead to pages that are gone too.
      Object.assign(state, { view: null, viewError: NOT_FOUND, viewNotice: null, locks: [] });
      failedReads = 0;
      return;
    }
    const wait = rereadDelaysMs[failedReads];
    failedReads = wait === undefined ? 0 : failedReads + 1;
    state.viewNotice = { message: error.message, retrying: wait !== undefined };
    if (wait !== undefined) {
      rereadTimer = setTimeout(reload, wait);
    }
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
      clearTimeout(rereadTimer);
      failedReads = 0;
      Object.assign(state, { view: null, viewError: null, viewNotice: null, locks: [] });
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
