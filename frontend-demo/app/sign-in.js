// sign-in.js — signing in and out, and the signed-in user's connections: the socket client (with the
// token provider that keeps it signed in), the REST API, and the take-over and waiting part.

import { EditlockClient, tokenExpiry } from '../editlock-client.js';
import { Api, ApiError, demoLogin } from '../api.js';
import { installHandover } from '../handover.js';
import { saveSession, forgetSession } from '../session.js';
import { KEPT_AFTER_DROP_MS } from '../model.js';

/** A token with less than this left is replaced (the client renews the socket's a minute before its end). */
const TOKEN_RENEW_MS = 2 * 60_000;

/**
 * The waits between attempts to open the first socket when one failed while the token is still good (the
 * network, a node that stopped, the socket quota): the last one repeats.
 */
const CONNECT_RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

/**
 * From this reconnect attempt on (the first one after a drop being #1), each one asks first whether the
 * server refuses the token: a socket the server refuses looks to a browser like any other failed attempt.
 */
const CHECK_TOKEN_FROM_ATTEMPT = 2;

/**
 * What a check of the sign-in found: the token is `kept` (accepted, or the server cannot be reached to say),
 * `renewed` (refused, and replaced with a new demo token of the same user), `ended` (demo login refused too,
 * or the session ended meanwhile: signed out), `unknown` (refused, and demo login could not be reached).
 * @typedef {'kept' | 'renewed' | 'ended' | 'unknown'} TokenCheck
 */

/** @typedef {NonNullable<import('./store.js').State['auth']>} Auth */

/** @param {string} name */
function slug(name) {
  return name.trim().toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'user';
}

/** `?transport=socketio`: the same client, its frames carried over Socket.IO instead of /locking. */
function wantsSocketIo() {
  return new URLSearchParams(location.search).get('transport') === 'socketio';
}

async function socketIoOptions() {
  const { openSocketIo } = await import('../socketio-socket.js');
  return { openSocket: openSocketIo };
}

/**
 * The token provider: the signed-in token while it lasts, else a fresh one from demo login. A real
 * application asks its identity provider here (a refresh token, a silent sign-in).
 * @param {Auth} auth
 */
async function freshToken(auth) {
  if (!(tokenExpiry(auth.token) - Date.now() > TOKEN_RENEW_MS)) {
    auth.token = await demoLogin(auth.userId, auth.name, auth.admin ? ['admin'] : []);
    saveSession(localStorage, auth);
  }
  return auth.token;
}

/** @param {import('./context.js').App} app */
export function createSignIn(app) {
  const { state } = app;

  /**
   * Signing out (here or in another tab) closes the socket with 1000: the server frees our pages at once.
   * The screen is signed out at once; the socket closes once the deletes waiting for their Undo are answered.
   * @returns {Promise<void>} when the socket is closed
   */
  async function signOut() {
    // Sent first, while the session and the open page they need are still there.
    const deletes = app.writes.sendPendingDeletes();
    const session = app.session;
    forgetSession(localStorage);
    session?.handover.close();
    app.session = null;
    Object.assign(state, { auth: null, connection: 'idle', route: { view: 'home' }, configurators: null, view: null, viewNotice: null, locks: [], edit: null });
    state.drafts.clear();
    state.draftBases.clear();
    history.replaceState(null, '', '#/');
    app.render();
    // The page's lock fences the deletes: closing frees it, and they would be refused with 412 (as leave() waits).
    await Promise.allSettled(deletes);
    session?.client.close('signed out');
  }

  /**
   * Connects as `auth` and opens the page of the route.
   * @param {Auth} auth
   */
  async function startWorkspace(auth) {
    state.auth = auth;
    const checkToken = tokenKeeper(auth, () => api);
    const api = new Api(() => auth.token, { refused: () => checkToken() });
    // Only the Socket.IO switch waits for a module: without it the client exists at once, as callers expect.
    const client = new EditlockClient({ token: () => freshToken(auth), ...(wantsSocketIo() ? await socketIoOptions() : {}) });
    /**
     * Listens while this client is the session's: a client signed out waits for its deletes before it
     * closes, and what it says meanwhile is no longer about what the screen shows.
     * @param {string} type
     * @param {(detail: any) => void} handle
     */
    const on = (type, handle) => client.addEventListener(type, (event) => {
      if (app.session?.client === client) handle(/** @type {CustomEvent} */ (event).detail);
    });
    on('statechange', (detail) => {
      if (detail.state === 'reconnecting' && state.connectionLostAt === null) {
        state.connectionLostAt = Date.now();
        // The banner changes its words once the locks may be gone: draw it again then.
        setTimeout(() => app.render(), KEPT_AFTER_DROP_MS + 100);
      } else if (detail.state === 'open' || detail.state === 'closed') {
        state.connectionLostAt = null;
      }
      state.connection = detail.state;
      app.render();
    });
    on('lock-updated', (detail) => app.edit.lockUpdated(detail));
    on('lock-released', (detail) => app.edit.lockReleased(detail));
    on('lock-lost', (detail) => app.edit.lockLost(detail));
    on('lock-acquired', (detail) => {
      if (detail.retaken) {
        app.edit.retaken(detail.lock); // a new grant after a drop that could not be resumed
      }
    });
    on('content-changed', (detail) => app.configurator.contentChanged(detail));
    on('reconnecting', ({ attempt }) => {
      // The server may have restarted with a new signing key: then no attempt succeeds with this token.
      if (attempt >= CHECK_TOKEN_FROM_ATTEMPT) {
        checkToken();
      }
    });
    on('connected', ({ reconnected }) => {
      if (reconnected) {
        app.edit.reconnected();
        app.configurator.scheduleReload();
      }
    });
    const handover = installHandover({ client, state, render: app.render, toast: app.toast,
      granted: (lock, forKey, asked) => app.edit.granted(lock, forKey, asked), retry: (edit) => app.edit.acquire(edit),
      sendPendingDeletes: () => app.writes.sendPendingDeletes(), pageExists });
    app.session = { client, api, handover };
    on('resumed', (detail) => {
      if (detail.locks.length > 0 && !detail.reload) {
        app.toast('Reconnected. Your edit lock was kept.');
      }
    });
    app.render();
    if (await connected(client, checkToken)) {
      await app.navigation.navigate();
    }
  }

  /**
   * Whether the page of `resource` still exists, read anew: a line may end because the store lost its data, and the
   * configurator with it.
   * @param {import('../editlock-client.js').Resource} resource
   * @returns {Promise<boolean>} true also when it could not be read (a 502): only a 404 says it is gone
   */
  async function pageExists(resource) {
    if (resource.configuratorId !== state.route.configuratorId) {
      return true; // not the open configurator: nothing read here says otherwise
    }
    await app.configurator.reload();
    if (state.viewError) {
      return false;
    }
    return resource.type !== 'item-subresource' || !state.view || state.view.items.has(/** @type {number} */ (resource.itemId));
  }

  /**
   * Opens the first socket of `client`, trying again while the token is good: a failed attempt alone says
   * nothing about the token (a browser does not tell a refused upgrade from a network error), and signing
   * out would sign out every tab of the browser and free the pages they hold. A token the REST API refuses
   * too is replaced (tokenKeeper); only a refused demo login signs out.
   * @param {EditlockClient} client
   * @param {() => Promise<TokenCheck>} checkToken
   * @returns {Promise<boolean>} whether it is open; false when this session ended meanwhile
   */
  async function connected(client, checkToken) {
    let renewed = false;
    for (let attempt = 0; ; attempt += 1) {
      try {
        await client.connect();
        return app.session?.client === client;
      } catch {
        if (app.session?.client !== client) {
          return false;
        }
        const checked = await checkToken();
        if (checked === 'ended' || app.session?.client !== client) {
          return false;
        }
        state.connection = 'reconnecting';
        app.render();
        // A new token is tried at once, once: one refused too (nodes that sign with different keys) waits as any
        // failed attempt, rather than asking the demo login again and again without a pause.
        if (checked !== 'renewed' || renewed) {
          const wait = CONNECT_RETRY_MS[Math.min(attempt, CONNECT_RETRY_MS.length - 1)];
          await new Promise((resolve) => { setTimeout(resolve, wait); });
          if (app.session?.client !== client) {
            return false;
          }
        }
        renewed ||= checked === 'renewed';
      }
    }
  }

  /**
   * Checks the session's token when something failed that a refused token would explain, and replaces a
   * refused one. With demo login and no configured key, every start of the server makes a new signing key
   * (docs/configuration.md): a restart refuses every token it issued before. That ends nobody's work: a new
   * demo token of the same user (same id and name) lets the client reconnect and resume its locks, and what
   * was typed stays in the form. Only demo login refusing the user signs out. One check at a time: a failed
   * socket and a failed save that come together share it.
   * @param {Auth} auth changed in place: the token provider and the API read its token
   * @param {() => Api} api the session's
   * @returns {() => Promise<TokenCheck>}
   */
  function tokenKeeper(auth, api) {
    /** @type {Promise<TokenCheck> | null} */
    let checking = null;
    const current = () => app.session?.api === api();
    /** @returns {Promise<TokenCheck>} */
    const check = async () => {
      if (!(await tokenRefused(api()))) {
        return current() ? 'kept' : 'ended';
      }
      if (!current()) {
        return 'ended';
      }
      let token;
      try {
        token = await demoLogin(auth.userId, auth.name, auth.admin ? ['admin'] : []);
      } catch (failure) {
        if (!current()) {
          return 'ended';
        }
        if (failure instanceof ApiError && failure.status >= 400 && failure.status < 500) {
          // Refused, or switched off: no new token can be had.
          signOut();
          app.toast('Your session has ended. Please sign in again.', 'error');
          return 'ended';
        }
        return 'unknown'; // demo login not reachable right now: the next failure asks again
      }
      if (!current()) {
        return 'ended';
      }
      auth.token = token;
      saveSession(localStorage, auth);
      return 'renewed';
    };
    return () => {
      checking ??= check().finally(() => { checking = null; });
      return checking;
    };
  }

  /** @param {Api} api @returns {Promise<boolean>} whether the server refuses the signed-in token */
  async function tokenRefused(api) {
    try {
      await api.call('GET', '/api/configurators?limit=1');
      return false;
    } catch (failure) {
      return failure instanceof ApiError && failure.status === 401;
    }
  }

  return {
    startWorkspace,
    signOut,

    /**
     * Signs in through demo login as `name` (an administrator if `admin`), kept for the browser.
     * @param {string} name
     * @param {boolean} admin
     */
    async signIn(name, admin) {
      const trimmed = name.trim();
      if (!trimmed) {
        app.toast('Please enter your name.', 'error');
        return;
      }
      state.busy = true;
      app.render();
      try {
        const userId = `demo-${slug(trimmed)}`;
        const token = await demoLogin(userId, trimmed, admin ? ['admin'] : []);
        /** @type {Auth} */
        const auth = { token, userId, name: trimmed, admin: Boolean(admin) };
        saveSession(localStorage, auth);
        await startWorkspace(auth);
      } catch (failure) {
        app.toast(/** @type {Error} */ (failure).message || 'Could not sign in.', 'error');
      } finally {
        state.busy = false;
        app.render();
      }
    },
  };
}
