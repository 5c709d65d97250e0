// app.js — the demo: state, routing and the edit session of the open page.
// Rendering lives in views.js and pages.js; the socket in editlock-client.js; REST in api.js.

import { EditlockClient, conflicts, resourceKey, tokenExpiry } from './editlock-client.js';
import { Api, ApiError, demoLogin } from './api.js';
import { rememberFocus } from './dom.js';
import { normalizeConfigurator, lostReasonText } from './model.js';
import { renderApp } from './views.js';
import { installHandover } from './handover.js';
import { loadSession, saveSession, forgetSession, signedOutElsewhere } from './session.js';
const root = document.getElementById('app');

/**
 * Everything the views draw from.
 * edit: the open page's edit session — {key, resource, status, token?, blockedBy?, reason?, message?}
 *   status: 'opening' | 'editing' | 'blocked' (another user holds it) | 'lost' (our lock was taken
 *   away) | 'error' (could not ask) | 'missing' (no such page)
 */
const state = {
  auth: null,
  connection: 'idle',
  route: { view: 'home' },
  configurators: null,
  view: null,
  viewError: null,
  locks: [],
  edit: null,
  drafts: new Map(),
  toasts: [],
  busy: false,
  /** entries deleted but not yet sent, so that Undo can bring them back: `${kind}:${id}` → {timer, send} */
  pendingDeletes: new Map(),
};

/** How long a deleted entry can be brought back with Undo before the delete is sent. */
const UNDO_MS = 6000;

let client = null;
/** Asking for a locked page and waiting in line for it (handover.js). */
let handover = null;
let api = null;
let renderQueued = false;
let reloadTimer = null;
let retryTimer = null;

// ---- rendering ----------------------------------------------------------------------------------

function render() {
  if (renderQueued) {
    return;
  }
  renderQueued = true;
  queueMicrotask(() => {
    renderQueued = false;
    const restoreFocus = rememberFocus(root);
    renderApp(root, state, actions);
    restoreFocus();
  });
}

/**
 * A short message in the corner. kind: 'info', 'success' or 'error'; action: {label, run} shows a
 * button (e.g. Undo) that also closes it.
 */
function toast(text, kind = 'info', { action = null, ms = kind === 'error' ? 8000 : 3500 } = {}) {
  const entry = { id: Math.random(), text, kind, action, createdAt: Date.now() };
  const dismiss = () => {
    state.toasts = state.toasts.filter((t) => t !== entry);
    render();
  };
  if (action) {
    entry.action = { label: action.label, run: () => { dismiss(); action.run(); } };
  }
  if (kind === 'success') {
    state.toasts = state.toasts.filter((t) => t.kind !== 'success'); // one "Saved." says it for every save
  }
  state.toasts.push(entry);
  render();
  setTimeout(dismiss, ms);
  return dismiss;
}

// ---- signing in and out -------------------------------------------------------------------------

function slug(name) {
  return name.trim().toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'user';
}

async function signIn(name, admin) {
  const trimmed = name.trim();
  if (!trimmed) {
    toast('Please enter your name.', 'error');
    return;
  }
  state.busy = true;
  render();
  try {
    const userId = `demo-${slug(trimmed)}`;
    const token = await demoLogin(userId, trimmed, admin ? ['admin'] : []);
    const auth = { token, userId, name: trimmed, admin: Boolean(admin) };
    saveSession(localStorage, auth);
    await startWorkspace(auth);
  } catch (failure) {
    toast(failure.message || 'Could not sign in.', 'error');
  } finally {
    state.busy = false;
    render();
  }
}

/** Signing out (here or in another tab) closes the socket with 1000: the server frees our pages at once. */
function signOut() {
  sendPendingDeletes();
  forgetSession(localStorage);
  if (client) {
    client.close('signed out');
  }
  client = null;
  api = null;
  Object.assign(state, { auth: null, connection: 'idle', route: { view: 'home' }, configurators: null, view: null, locks: [], edit: null });
  state.drafts.clear();
  history.replaceState(null, '', '#/');
  render();
}

/** `?transport=socketio`: the same client, its frames carried over Socket.IO instead of /locking. */
function wantsSocketIo() {
  return new URLSearchParams(location.search).get('transport') === 'socketio';
}

async function socketIoOptions() {
  const { openSocketIo } = await import('./socketio-socket.js');
  return { openSocket: openSocketIo };
}

/** A token with less than this left is replaced (the client renews the socket's a minute before its end). */
const TOKEN_RENEW_MS = 2 * 60_000;

/**
 * The token provider: the signed-in token while it lasts, else a fresh one from demo login. A real
 * application asks its identity provider here (a refresh token, a silent sign-in).
 */
async function freshToken(auth) {
  if (!(tokenExpiry(auth.token) - Date.now() > TOKEN_RENEW_MS)) {
    auth.token = await demoLogin(auth.userId, auth.name, auth.admin ? ['admin'] : []);
    saveSession(localStorage, auth);
  }
  return auth.token;
}

async function startWorkspace(auth) {
  state.auth = auth;
  api = new Api(() => auth.token);
  // Only the Socket.IO switch waits for a module: without it the client exists at once, as callers expect.
  client = new EditlockClient({ token: () => freshToken(auth), ...(wantsSocketIo() ? await socketIoOptions() : {}) });
  client.addEventListener('statechange', (event) => {
    state.connection = event.detail.state;
    render();
  });
  client.addEventListener('lock-updated', (event) => onLockUpdated(event.detail));
  client.addEventListener('lock-released', (event) => onLockReleased(event.detail));
  client.addEventListener('lock-lost', (event) => onLockLost(event.detail));
  client.addEventListener('content-changed', (event) => onContentChanged(event.detail));
  client.addEventListener('connected', (event) => onConnected(event.detail));
  handover = installHandover({ client, state, render, toast, granted: grantedByHandover, retry: (edit) => acquire(edit) });
  client.addEventListener('resumed', (event) => {
    if (event.detail.locks.length > 0 && !event.detail.reload) {
      toast('Reconnected. Your edit lock was kept.');
    }
  });
  render();
  try {
    await client.connect();
  } catch {
    // The token is no longer accepted and no fresh one can be had (the server restarted with a new
    // key, or demo login was switched off).
    signOut();
    toast('Your session has ended. Please sign in again.', 'error');
    return;
  }
  await navigate();
}

// ---- routing ------------------------------------------------------------------------------------

/** `#/`, `#/c/12`, `#/c/12/structure`, `#/c/12/variables`, `#/c/12/items/5/filters` */
function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const id = (text) => (/^\d{1,15}$/.test(text || '') ? Number(text) : null);
  if (parts[0] !== 'c' || id(parts[1]) === null) {
    return { view: 'home' };
  }
  const configuratorId = id(parts[1]);
  if (parts[2] === 'structure' || parts[2] === 'variables') {
    return { view: parts[2], configuratorId };
  }
  if (parts[2] === 'items' && id(parts[3]) !== null && ['filters', 'dependencies', 'attributes'].includes(parts[4])) {
    return { view: 'item', configuratorId, itemId: id(parts[3]), page: parts[4] };
  }
  return { view: 'overview', configuratorId };
}

function resourceOf(route) {
  switch (route.view) {
    case 'structure': return { type: 'configurator', configuratorId: route.configuratorId };
    case 'variables': return { type: 'variables', configuratorId: route.configuratorId };
    case 'item': return { type: 'item-subresource', configuratorId: route.configuratorId, itemId: route.itemId, page: route.page };
    default: return null;
  }
}

async function navigate() {
  if (!state.auth) {
    return;
  }
  const previous = state.route;
  const route = parseRoute(location.hash);
  state.route = route;
  const resource = resourceOf(route);
  const key = resource ? resourceKey(resource) : null;

  if (state.edit && state.edit.key !== key) {
    leavePage(state.edit);
  }
  if (previous.configuratorId !== route.configuratorId) {
    await switchConfigurator(previous.configuratorId, route.configuratorId);
  }
  if (route.view === 'home') {
    loadConfigurators();
  }
  if (resource && (!state.edit || state.edit.key !== key)) {
    state.edit = { key, resource, status: 'opening' };
    render();
    acquire(state.edit);
  } else if (!resource) {
    state.edit = null;
  }
  render();
}

async function switchConfigurator(from, to) {
  if (from) {
    client.unwatch(from).catch(() => {});
  }
  state.view = null;
  state.viewError = null;
  state.locks = [];
  state.drafts.clear();
  if (!to) {
    return;
  }
  render();
  await Promise.all([
    reloadConfigurator(),
    client.watch(to).catch((failure) => {
      if (failure.code === 'NOT_FOUND') {
        state.viewError = 'This configurator does not exist (any more).';
      }
    }),
  ]);
}

async function loadConfigurators() {
  try {
    state.configurators = await api.listConfigurators();
  } catch (failure) {
    state.configurators = state.configurators || [];
    toast(`Could not load the configurators: ${failure.message}`, 'error');
  }
  render();
}

async function reloadConfigurator() {
  const id = state.route.configuratorId;
  if (!id) {
    return;
  }
  try {
    const body = await api.configurator(id);
    if (state.route.configuratorId === id) {
      state.view = normalizeConfigurator(body);
      state.viewError = null;
    }
  } catch (failure) {
    if (state.route.configuratorId === id) {
      state.viewError = failure.status === 404
        ? 'This configurator does not exist (any more).'
        : `Could not load this configurator: ${failure.message}`;
    }
  }
  render();
}

function scheduleReload() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(reloadConfigurator, 120);
}

// ---- the edit session of the open page ----------------------------------------------------------

function lockRequest(resource) {
  if (resource.type === 'configurator') return client.lockConfigurator(resource.configuratorId);
  if (resource.type === 'variables') return client.lockVariables(resource.configuratorId);
  return client.lockItemPage(resource.itemId, resource.page);
}

/** Asks for the page's lock; the page is editable only once it is granted. */
async function acquire(edit) {
  if (edit.acquiring || state.edit !== edit) {
    return;
  }
  edit.acquiring = true;
  clearTimeout(retryTimer);
  try {
    const lock = await lockRequest(edit.resource);
    if (state.edit !== edit) {
      client.unlock(edit.resource).catch(() => {}); // the user moved on meanwhile
      return;
    }
    Object.assign(edit, { status: 'editing', token: lock.token, blockedBy: null, reason: null, message: null });
    if (lock.resource.configuratorId) {
      edit.resource.configuratorId = lock.resource.configuratorId;
    }
  } catch (failure) {
    if (state.edit !== edit) {
      return;
    }
    refused(edit, failure);
  } finally {
    edit.acquiring = false;
    render();
  }
}

function refused(edit, failure) {
  switch (failure.code) {
    case 'LOCKED':
      Object.assign(edit, { status: 'blocked', blockedBy: { name: failure.lockedBy, userId: failure.lockedByUserId } });
      break;
    case 'NOT_FOUND':
      Object.assign(edit, { status: 'missing' });
      break;
    default:
      Object.assign(edit, { status: 'error', message: failure.code === 'RATE_LIMITED'
        ? 'Too many requests. Trying again in a moment…'
        : 'The lock server is not reachable right now. Trying again…' });
      retryTimer = setTimeout(() => acquire(edit), 3000);
  }
}

function leavePage(edit) {
  clearTimeout(retryTimer);
  handover?.left(edit);
  // Deletes waiting for their Undo go out now, while the page's lock still fences them.
  const deletes = sendPendingDeletes();
  if (client && client.heldLock(edit.resource)) {
    const heldBy = client;
    Promise.allSettled(deletes).then(() => heldBy.unlock(edit.resource).catch(() => {}));
  }
}

/** Another user's lock in the current configurator that keeps us from editing the open page. */
function blockingLock(edit, locks) {
  const me = state.auth.userId;
  return locks.find((lock) => lock.ownerUserId !== me && conflicts(edit.resource, lock.resource));
}

/** The open page was handed to us (a take-over, or our turn in the line): it is editable now. */
function grantedByHandover(lock) {
  const edit = state.edit;
  if (edit && edit.key === resourceKey(lock.resource)) {
    Object.assign(edit, { status: 'editing', token: lock.token, blockedBy: null, reason: null, message: null });
  }
}

function waitingForOthers(edit) {
  return edit && (edit.status === 'blocked' || edit.status === 'error');
}

function onLockUpdated({ configuratorId, locks }) {
  if (configuratorId !== state.route.configuratorId) {
    return;
  }
  state.locks = locks;
  const edit = state.edit;
  if (waitingForOthers(edit) && edit.resource.configuratorId) {
    const blocker = blockingLock(edit, locks);
    if (!blocker) {
      acquire(edit); // the holder is done: take the page
    } else if (edit.status === 'blocked') {
      edit.blockedBy = { name: blocker.ownerUserName, userId: blocker.ownerUserId };
    }
  }
  render();
}

function onLockReleased({ resource }) {
  const edit = state.edit;
  if (waitingForOthers(edit) && resource.configuratorId === edit.resource.configuratorId
      && (!edit.resource.configuratorId || conflicts(edit.resource, resource))) {
    acquire(edit);
  }
}

function onLockLost({ resource, reason, refusal }) {
  const edit = state.edit;
  if (!edit || edit.key !== resourceKey(resource)) {
    return;
  }
  if (refusal && refusal.code === 'LOCKED') {
    Object.assign(edit, { status: 'blocked', blockedBy: { name: refusal.lockedBy, userId: refusal.lockedByUserId } });
  } else if (reason === 'deleted') {
    Object.assign(edit, { status: 'missing' });
  } else {
    Object.assign(edit, { status: 'lost', reason: lostReasonText(reason) });
  }
  render();
}

function onContentChanged({ configuratorId, entity, op }) {
  if (configuratorId !== state.route.configuratorId) {
    return;
  }
  if (entity === 'configurator' && op === 'deleted') {
    toast('This configurator was deleted.', 'error');
    location.hash = '#/';
    return;
  }
  scheduleReload();
}

function onConnected({ reconnected }) {
  if (!reconnected) {
    return;
  }
  const edit = state.edit;
  if (waitingForOthers(edit)) {
    acquire(edit);
  }
  scheduleReload();
}

// ---- writes -------------------------------------------------------------------------------------

/**
 * Runs one REST write with the page's fencing token. A 423 shows who edits the page (read-only,
 * waiting for them), a 412 says our lock is gone; neither is an error box.
 * @returns {Promise<boolean>} whether it was saved
 */
async function write(action, done, { saved = 'Saved.' } = {}) {
  const edit = state.edit;
  if (!edit || edit.status !== 'editing') {
    return false;
  }
  const held = client.heldLock(edit.resource);
  const token = held ? held.token : edit.token;
  try {
    const result = await action(token);
    if (done) {
      done(result);
    }
    if (saved) {
      toast(saved, 'success');
    }
    await reloadConfigurator();
    return true;
  } catch (failure) {
    writeFailed(edit, failure);
    return false;
  } finally {
    render();
  }
}

function writeFailed(edit, failure) {
  if (!(failure instanceof ApiError)) {
    toast(String(failure.message || failure), 'error');
    return;
  }
  const body = failure.body;
  switch (failure.status) {
    case 423: {
      const name = body.lockedBy || 'someone else';
      Object.assign(edit, { status: 'blocked', blockedBy: { name, userId: body.lockedByUserId } });
      showBlocker(edit, body);
      toast(`Not saved: ${name} is editing this page now. Your change stays in the form; save it again when the page is yours.`);
      resync();
      break;
    }
    case 412:
      Object.assign(edit, { status: 'lost', reason: 'Your edit lock ran out (you were away, or the connection was lost), so this change was not saved.' });
      toast('Not saved: your edit lock ran out. Click \u201cEdit again\u201d, then save once more \u2014 your change is still in the form.', 'error');
      resync();
      break;
    case 404:
      toast('That was deleted in the meantime.');
      scheduleReload();
      break;
    case 400:
      toast(body.message || 'Please check the fields.', 'error');
      break;
    case 503:
      toast('Not saved: the lock service is unavailable right now. Your change is still in the form \u2014 try again in a moment.', 'error');
      break;
    default:
      toast(failure.message, 'error');
  }
}

/**
 * A 423 says who really holds what we believed was ours: show that at once in the tree, before the
 * fresh lock state arrives.
 */
function showBlocker(edit, body) {
  const mine = state.auth.userId;
  state.locks = state.locks.filter((lock) => !(lock.ownerUserId === mine && resourceKey(lock.resource) === edit.key));
  if (body.resource && body.lockedByUserId && !state.locks.some((lock) => resourceKey(lock.resource) === resourceKey(body.resource))) {
    const now = new Date().toISOString();
    state.locks.push({ resource: body.resource, ownerUserId: body.lockedByUserId, ownerUserName: body.lockedBy,
      acquiredAt: now, expiresAt: body.expiresAt || now });
  }
}

/**
 * We believed we held a lock the server says someone else has: our view of the locks is stale
 * (a lost message, a half-open socket). Ask for the current state; a dead socket then times out
 * and the client reconnects by itself.
 */
function resync() {
  const id = state.route.configuratorId;
  if (client && id) {
    client.watch(id).catch(() => {});
  }
}

// ---- deletes that can be undone -----------------------------------------------------------------

/**
 * Hides the entry at once and sends the delete only when the Undo window is over, so that a slip
 * (a double click, the wrong row) loses nothing.
 */
function deleteWithUndo(key, noun, send) {
  if (state.pendingDeletes.has(key)) {
    return;
  }
  const pending = { send: null, timer: null };
  let dismiss = () => {};
  pending.send = () => {
    clearTimeout(pending.timer);
    state.pendingDeletes.delete(key);
    dismiss();
    return write(send, null, { saved: null }).then((deleted) => {
      if (!deleted) {
        toast(`The ${noun} was not deleted.`, 'error');
      }
      render();
      return deleted;
    });
  };
  pending.timer = setTimeout(pending.send, UNDO_MS);
  state.pendingDeletes.set(key, pending);
  const undo = () => {
    clearTimeout(pending.timer);
    state.pendingDeletes.delete(key);
    render();
  };
  const text = `${noun.charAt(0).toUpperCase()}${noun.slice(1)} deleted.`;
  dismiss = toast(text, 'info', { action: { label: 'Undo', run: undo }, ms: UNDO_MS });
}

/** @returns {Promise<boolean>[]} the deletes sent now */
function sendPendingDeletes() {
  return [...state.pendingDeletes.values()].map((pending) => pending.send());
}

// ---- actions the views call ---------------------------------------------------------------------

const actions = {
  signIn,
  signOut,
  toast,
  go(hash) {
    if (location.hash === hash) {
      navigate();
    } else {
      location.hash = hash;
    }
  },
  draft(field, value) {
    state.drafts.set(field, value);
  },
  clearDrafts(prefix) {
    for (const key of [...state.drafts.keys()]) {
      if (key.startsWith(prefix)) {
        state.drafts.delete(key);
      }
    }
  },
  retryEdit() {
    if (state.edit) {
      acquire(state.edit);
    }
  },
  refreshList: loadConfigurators,
  askHolder: (edit, message) => handover.askHolder(edit, message),
  waitForPage: (edit) => handover.waitForPage(edit),
  stopWaiting: (edit) => handover.stopWaiting(edit),
  answerTakeover: (accept) => handover.answer(accept),
  write: (action, done) => write((token) => action(api, token), done),
  deleteWithUndo: (key, noun, action) => deleteWithUndo(key, noun, (token) => action(api, token)),
  isPendingDelete: (key) => state.pendingDeletes.has(key),
  async createConfigurator(name) {
    try {
      const created = await api.createConfigurator(name.trim());
      location.hash = `#/c/${created.id}/structure`;
      return true;
    } catch (failure) {
      toast(failure.status === 400 ? 'Please give the configurator a name.' : failure.message, 'error');
      return false;
    }
  },
  async breakLock(lock) {
    try {
      await api.call('DELETE', `/api/locks/${encodeURIComponent(resourceKey(lock.resource))}`);
      toast(`Released ${lock.ownerUserName}\u2019s lock.`);
    } catch (failure) {
      toast(failure.message, 'error');
    }
  },
};

// ---- start --------------------------------------------------------------------------------------

window.addEventListener('hashchange', () => navigate());
window.addEventListener('storage', (event) => {
  if (state.auth && signedOutElsewhere(event)) {
    signOut();
  }
});
const saved = loadSession(localStorage);
if (saved) {
  startWorkspace(saved);
} else {
  render();
}
