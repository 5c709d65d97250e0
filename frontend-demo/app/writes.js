// writes.js — REST writes of the open page, each with its fencing token (`Lock-Token`), and what a
// refusal means for the page; deletes wait for their Undo before they are sent.

import { resourceKey } from '../editlock-client.js';
import { ApiError } from '../api.js';

/** How long a deleted entry can be brought back with Undo before the delete is sent. */
const UNDO_MS = 6000;

/** @typedef {import('./store.js').Edit} Edit */

/** @param {import('./context.js').App} app */
export function createWrites(app) {
  const { state } = app;

  /**
   * Runs one REST write with the page's fencing token. A 423 shows who edits the page (read-only,
   * waiting for them), a 412 says our lock is gone; neither is an error box.
   * @param {(token: number | undefined) => Promise<any>} action
   * @param {((result: any) => void) | null} [done] after it succeeded
   * @param {{saved?: string | null}} [options] the toast of a success (null: none)
   * @returns {Promise<boolean>} whether it was saved
   */
  async function write(action, done, { saved = 'Saved.' } = {}) {
    const edit = state.edit;
    if (!edit || edit.status !== 'editing' || !app.session) {
      return false;
    }
    const held = app.session.client.heldLock(edit.resource);
    const token = held ? held.token : edit.token;
    try {
      const result = await action(token);
      if (done) {
        done(result);
      }
      if (saved) {
        app.toast(saved, 'success');
      }
      await app.configurator.reload();
      return true;
    } catch (failure) {
      writeFailed(edit, failure);
      return false;
    } finally {
      app.render();
    }
  }

  /**
   * @param {Edit} edit
   * @param {any} failure
   */
  function writeFailed(edit, failure) {
    if (!(failure instanceof ApiError)) {
      app.toast(String(failure.message || failure), 'error');
      return;
    }
    const body = failure.body;
    switch (failure.status) {
      case 423: {
        const name = body.lockedBy || 'someone else';
        app.edit.blocked(edit, { name, userId: body.lockedByUserId, resource: body.resource }); // the 423 names the lock in the way
        showBlocker(edit, body);
        app.toast(`Not saved: ${name} is editing this page now. Your change stays in the form; save it again when the page is yours `
          + '(if they change the same field meanwhile, yours is dropped then, and you see what they saved).');
        app.configurator.resync();
        break;
      }
      case 412:
        Object.assign(edit, { status: 'lost', reason: 'Your edit lock ran out (you were away, or the connection was lost), so this change was not saved.' });
        app.toast('Not saved: your edit lock ran out. Click \u201cEdit again\u201d: the page is read again, and your change stays in the form '
          + 'to save once more \u2014 unless someone else changed the same field meanwhile; then it is dropped, and you see what they saved.', 'error', { ms: 12_000 });
        app.configurator.resync();
        break;
      case 401:
        // api.js has the session check the sign-in, and renew it if it can (sign-in.js tokenKeeper).
        app.toast('Not saved: the server no longer accepts your sign-in (it may have restarted), so you are being signed in '
          + 'again. Your change is still in the form \u2014 save it once more when the connection shows \u201cLive\u201d.', 'error', { ms: 12_000 });
        break;
      case 404:
        app.toast('That was deleted in the meantime.');
        app.configurator.scheduleReload();
        break;
      case 400:
        app.toast(body.message || 'Please check the fields.', 'error');
        break;
      case 503:
        app.toast('Not saved: the lock service is unavailable right now. Your change is still in the form \u2014 try again in a moment.', 'error');
        break;
      default:
        app.toast(failure.message, 'error');
    }
  }

  /**
   * A 423 says who really holds what we believed was ours: show that at once in the tree, before the
   * fresh lock state arrives.
   * @param {Edit} edit
   * @param {any} body the 423's body
   */
  function showBlocker(edit, body) {
    const mine = state.auth?.userId;
    state.locks = state.locks.filter((lock) => !(lock.ownerUserId === mine && resourceKey(lock.resource) === edit.key));
    if (body.resource && body.lockedByUserId && !state.locks.some((lock) => resourceKey(lock.resource) === resourceKey(body.resource))) {
      const now = new Date().toISOString();
      state.locks.push({ resource: body.resource, ownerUserId: body.lockedByUserId, ownerUserName: body.lockedBy,
        acquiredAt: now, expiresAt: body.expiresAt || now });
    }
  }

  /**
   * Hides the entry at once and sends the delete only when the Undo window is over, so that a slip
   * (a double click, the wrong row) loses nothing.
   * @param {string} key `${kind}:${id}`
   * @param {string} noun what it is, in words ("filter")
   * @param {(token: number | undefined) => Promise<any>} send
   */
  function deleteWithUndo(key, noun, send) {
    if (state.pendingDeletes.has(key)) {
      return;
    }
    /** @type {{send: () => Promise<boolean>, timer: ReturnType<typeof setTimeout> | undefined}} */
    const pending = { send: () => Promise.resolve(false), timer: undefined };
    let dismiss = () => {};
    pending.send = () => {
      clearTimeout(pending.timer);
      state.pendingDeletes.delete(key);
      dismiss();
      return write(send, null, { saved: null }).then((deleted) => {
        if (!deleted) {
          app.toast(`The ${noun} was not deleted.`, 'error');
        }
        app.render();
        return deleted;
      });
    };
    pending.timer = setTimeout(pending.send, UNDO_MS);
    state.pendingDeletes.set(key, pending);
    const undo = () => {
      clearTimeout(pending.timer);
      state.pendingDeletes.delete(key);
      app.render();
    };
    const text = `${noun.charAt(0).toUpperCase()}${noun.slice(1)} deleted.`;
    dismiss = app.toast(text, 'info', { action: { label: 'Undo', run: undo }, ms: UNDO_MS });
  }

  return {
    write,
    deleteWithUndo,
    /** @param {string} key @returns {boolean} whether that entry waits for its Undo */
    isPendingDelete: (key) => state.pendingDeletes.has(key),
    /** @returns {Promise<boolean>[]} the deletes sent now */
    sendPendingDeletes() {
      return [...state.pendingDeletes.values()].map((pending) => pending.send());
    },
  };
}
