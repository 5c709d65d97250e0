// store.js — the demo's state, in one place, and the one way to say it changed: `changed()` redraws
// once, after the current task, however often it is called.

/**
 * The open page's edit session.
 * @typedef {object} Edit
 * @property {string} key the canonical string of its resource
 * @property {import('../editlock-client.js').Resource} resource
 * @property {'opening' | 'editing' | 'blocked' | 'lost' | 'error' | 'missing'} status 'blocked': another
 *   user holds it; 'lost': our lock was taken away; 'error': could not ask; 'missing': no such page
 * @property {number} [token] the fencing token while editing
 * @property {{name: string, userId?: string, resource?: import('../editlock-client.js').Resource} | null} [blockedBy]
 *   who is in the way, and the lock of theirs that is (the page's own, or the configurator lock): the one
 *   to ask them for
 * @property {import('../editlock-client.js').Resource[]} [steps] locks handed to us because they stood in
 *   the page's way (Tom's configurator lock, for an item page): kept only until the page is ours or left
 * @property {string | null} [reason] why the lock was lost, in words
 * @property {string | null} [message] what went wrong asking for it
 * @property {boolean} [acquiring] a lock request is under way
 * @property {boolean} [left] the user moved on from the page (it may still be the open one for a moment)
 */

/**
 * A message in the corner.
 * @typedef {object} Toast
 * @property {number} id
 * @property {string} text
 * @property {'info' | 'success' | 'error'} kind
 * @property {{label: string, run: () => void} | null} action
 * @property {number} createdAt
 */

/**
 * Everything the views draw from.
 * @typedef {object} State
 * @property {{token: string, userId: string, name: string, admin: boolean} | null} auth
 * @property {string} connection the client's connection state
 * @property {number | null} connectionLostAt when the open connection was lost (Date.now()), while it is being reconnected
 * @property {{view: string, configuratorId?: number, itemId?: number, page?: string}} route
 * @property {import('../api.js').ConfiguratorSummary[] | null} configurators the home page's list (null: loading)
 * @property {import('../model.js').ConfiguratorView | null} view the open configurator
 * @property {string | null} viewError why it cannot be shown: it does not exist
 * @property {{message: string, retrying: boolean} | null} viewNotice the open configurator could not be read (a
 *   proxy's 502, a moment offline), and whether it is read again by itself; what was read before stays shown
 * @property {import('../editlock-client.js').Lock[]} locks every lock in the open configurator
 * @property {Edit | null} edit
 * @property {Map<string, string>} drafts what the user typed, by field, kept across redraws
 * @property {Map<string, string>} draftBases the saved value each draft was typed over (model.js savedValue), by
 *   field: a draft whose base is no longer what is saved is never saved over it
 * @property {Toast[]} toasts
 * @property {boolean} busy signing in
 * @property {Map<string, {send: () => Promise<boolean>, timer: any}>} pendingDeletes entries deleted but
 *   not yet sent, so that Undo can bring them back: `${kind}:${id}` → {timer, send}
 * @property {import('../handover.js').HandoverState} [handover] asking for pages and waiting in line (handover.js)
 */

/** @returns {State} the state of a signed-out demo */
export function initialState() {
  return {
    auth: null,
    connection: 'idle',
    connectionLostAt: null,
    route: { view: 'home' },
    configurators: null,
    view: null,
    viewError: null,
    viewNotice: null,
    locks: [],
    edit: null,
    drafts: new Map(),
    draftBases: new Map(),
    toasts: [],
    busy: false,
    pendingDeletes: new Map(),
  };
}

/**
 * @param {State} state
 * @returns {{state: State, changed: () => void, subscribe: (listener: (state: State) => void) => void}}
 */
export function createStore(state) {
  /** @type {Array<(state: State) => void>} */
  const listeners = [];
  let queued = false;
  return {
    state,
    /** Redraws once the current task is done (many changes, one redraw). */
    changed() {
      if (queued) {
        return;
      }
      queued = true;
      queueMicrotask(() => {
        queued = false;
        listeners.forEach((listener) => listener(state));
      });
    },
    subscribe(listener) {
      listeners.push(listener);
    },
  };
}
