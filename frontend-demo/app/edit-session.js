// edit-session.js — the edit session of the open page: its lock is asked for when the page opens, the
// page is editable only while it is held, and it follows what the server says about it (someone else
// holds it, they are done, it was taken away, the connection came back).

import { blockingLock, conflicts, resourceKey } from '../editlock-client.js';
import { lostReasonText, staleDrafts } from '../model.js';

/** @typedef {import('./store.js').Edit} Edit */
/** @typedef {import('../editlock-client.js').Lock} Lock */
/** @typedef {import('../editlock-client.js').Resource} Resource */

/** @param {Edit | null} edit @returns {edit is Edit} whether it waits for others (blocked, or could not ask) */
function waitingForOthers(edit) {
  return Boolean(edit && (edit.status === 'blocked' || edit.status === 'error'));
}

/**
 * Who is in the way, from a `LOCKED` refusal: the holder, and their lock that refused the page.
 * @param {{lockedBy?: string, lockedByUserId?: string, blocking?: Lock}} refusal
 * @returns {NonNullable<Edit['blockedBy']>}
 */
function blockedByOf(refusal) {
  return { name: refusal.lockedBy || 'someone else', userId: refusal.lockedByUserId, resource: refusal.blocking?.resource };
}

/** The waits before the page is read again, when reading it before it turns editable under a new grant failed. */
const REREAD_DELAYS_MS = [1000, 2000, 4000];

/**
 * @param {import('./context.js').App} app
 * @param {{rereadDelaysMs?: number[]}} [options]
 */
export function createEditSession(app, { rereadDelaysMs = REREAD_DELAYS_MS } = {}) {
  const { state } = app;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;

  /**
   * Whether the page of `key` is open again, in a new edit session: the lock is the same grant (a
   * re-entry), so an unlock meant for the session that was left would take it from the one now open.
   * The session left may still be the open one for a moment (navigation awaits the next configurator
   * before it opens the next page): that is not a page open again.
   * @param {string} key
   */
  const reopened = (key) => state.edit !== null && !state.edit.left && state.edit.key === key;

  /**
   * Asks for the page's lock; the page is editable only once it is granted.
   * @param {Edit} edit
   */
  async function acquire(edit) {
    if (edit.acquiring || state.edit !== edit || !app.session) {
      return;
    }
    const { client } = app.session;
    edit.acquiring = true;
    clearTimeout(retryTimer);
    try {
      const lock = await client.lock(edit.resource);
      if (state.edit !== edit) {
        if (!reopened(edit.key)) {
          client.unlock(edit.resource).catch(() => {}); // the user moved on meanwhile
        }
        return;
      }
      if (lock.resource.configuratorId) {
        edit.resource.configuratorId = lock.resource.configuratorId;
      }
      releaseSteps(edit);
      await editWith(edit, lock);
    } catch (failure) {
      if (state.edit !== edit) {
        return;
      }
      refused(edit, failure);
    } finally {
      edit.acquiring = false;
      app.render();
    }
  }

  /**
   * The page is ours (again) under `lock`. A grant other than the one the page was editable with is new
   * (docs/protocol.md §7): others may have saved the page meanwhile. So, while drafts wait, the page is
   * read again before it turns editable, and a draft typed over a value that is no longer what is saved is
   * dropped, with a word to the user: saved with the new token, it would write over their save unseen.
   * A read that fails is tried again; if it keeps failing, the drafts that cannot be checked are dropped.
   * @param {Edit} edit
   * @param {Lock} lock
   */
  async function editWith(edit, lock) {
    if (edit.token !== lock.token && state.draftBases.size > 0) {
      Object.assign(edit, { status: 'opening', blockedBy: null, reason: null, message: null });
      app.render();
      const read = await readAgain(edit, lock);
      if (read === null) {
        return; // the page was left, or its lock lost, meanwhile
      }
      if (read) {
        dropDrafts(staleDrafts(state.draftBases, state.view),
          'someone else changed the same field while you could not edit. The page shows what is saved now.');
      } else {
        dropDrafts([...state.draftBases.keys()],
          'the page could not be read again to check it against what others saved meanwhile.');
      }
    }
    Object.assign(edit, { status: 'editing', token: lock.token, blockedBy: null, reason: null, message: null });
    app.render();
  }

  /**
   * Reads the page again for `editWith`, after each of the back-off waits again while the read fails; the
   * page stays "opening" meanwhile.
   * @param {Edit} edit
   * @param {Lock} lock
   * @returns {Promise<boolean | null>} whether it was read; null: the page was left, or its lock lost, meanwhile
   */
  async function readAgain(edit, lock) {
    const stillOurs = () => state.edit === edit && edit.status === 'opening'
      && app.session?.client.heldLock(edit.resource)?.token === lock.token;
    for (const wait of [...rereadDelaysMs, null]) {
      const read = await app.configurator.reload();
      if (!stillOurs()) {
        return null;
      }
      if (read || wait === null) {
        return read;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (!stillOurs()) {
        return null;
      }
    }
    return false;
  }

  /**
   * Drops these drafts, each typed over a saved value that changed since or that cannot be checked, and
   * says why.
   * @param {string[]} keys
   * @param {string} why ends the sentence "Your unsaved change was dropped: …"
   */
  function dropDrafts(keys, why) {
    for (const key of keys) {
      state.drafts.delete(key);
      state.draftBases.delete(key);
    }
    if (keys.length > 0) {
      const what = keys.length === 1 ? 'Your unsaved change was' : `Your ${keys.length} unsaved changes were`;
      app.toast(`${what} dropped: ${why}`, 'error', { ms: 15_000 });
    }
  }

  /**
   * Releases the locks handed to us only because they stood in the page's way (edit.steps): the page is
   * ours, or left, and a lock the user holds without looking at it (a whole configurator) would keep
   * everybody else out for nothing. One that the page open now is itself stays: it is that page's lock.
   * @param {Edit} edit
   */
  function releaseSteps(edit) {
    const steps = edit.steps || [];
    edit.steps = [];
    const client = app.session?.client;
    for (const step of steps) {
      if (client && !reopened(resourceKey(step)) && client.heldLock(step)) {
        client.unlock(step).catch(() => {});
      }
    }
  }

  /**
   * @param {Edit} edit
   * @param {any} failure the client's EditlockError
   */
  function refused(edit, failure) {
    switch (failure.code) {
      case 'LOCKED':
        blocked(edit, blockedByOf(failure));
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

  /**
   * The page is left: its line and request go, pending deletes go out, then its lock is released.
   * @param {Edit} edit
   */
  function leave(edit) {
    edit.left = true;
    clearTimeout(retryTimer);
    app.session?.handover.left(edit);
    // Deletes waiting for their Undo go out now, while the page's lock still fences them.
    const deletes = app.writes.sendPendingDeletes();
    const client = app.session?.client;
    if (client && (client.heldLock(edit.resource) || edit.steps?.length)) {
      Promise.allSettled(deletes).then(() => {
        if (!reopened(edit.key) && client.heldLock(edit.resource)) {
          client.unlock(edit.resource).catch(() => {});
        }
        releaseSteps(edit);
      });
    }
  }

  /**
   * The page is someone else's. A word on why the user lost it (`edit.reason`) stays until the page is
   * editable again or left: asking again after a reconnect is refused the same way.
   * @param {Edit} edit @param {NonNullable<Edit['blockedBy']>} blockedBy
   */
  function blocked(edit, blockedBy) {
    Object.assign(edit, { status: 'blocked', blockedBy });
  }

  return {
    acquire,
    leave,
    blocked,

    /**
     * Opens the page of `resource` for editing.
     * @param {string} key
     * @param {Resource} resource
     */
    open(key, resource) {
      state.edit = { key, resource, status: 'opening' };
      app.session?.handover.opened(state.edit);
      app.render();
      acquire(state.edit);
    },

    /** Asks again for the open page (the user's "Edit again"). */
    retry() {
      if (state.edit) {
        acquire(state.edit);
      }
    },

    /**
     * A lock was handed to us (a take-over, or our turn in the line) for the page of `forKey`. The page's
     * own lock makes it editable now. Another one stood in its way (the configurator lock Tom held while
     * Sara looked at an item page): with it ours, the page is locked next, and that lock is released
     * once the page is ours: the user asked for the page, not for more.
     * Only the sockets that asked keep a grant from a line or a hand-over (docs/protocol.md §13, §14): a tab
     * told of one it did not ask for asks for the lock itself first. The re-entry keeps the same token and
     * makes this socket one that keeps the lock, so the page stays editable when the asking tab closes.
     * @param {Lock} lock
     * @param {string} [forKey] the page it was asked for, when not the lock's own
     * @param {boolean} [asked] this tab's socket asked for it (and keeps it)
     */
    granted(lock, forKey = resourceKey(lock.resource), asked = false) {
      const edit = state.edit;
      if (!edit || edit.key !== forKey) {
        return;
      }
      if (edit.key === resourceKey(lock.resource)) {
        if (asked) {
          editWith(edit, lock);
        } else {
          acquire(edit);
        }
        return;
      }
      edit.steps = [...(edit.steps || []), lock.resource];
      if (edit.status === 'editing') {
        releaseSteps(edit); // the page was locked before this news came (its release came first)
      } else {
        acquire(edit);
      }
    },

    /** @param {{configuratorId: number, locks: Lock[]}} detail */
    lockUpdated({ configuratorId, locks }) {
      if (configuratorId !== state.route.configuratorId) {
        return;
      }
      state.locks = locks;
      const edit = state.edit;
      if (waitingForOthers(edit) && edit.resource.configuratorId && state.auth) {
        const blocker = blockingLock(edit.resource, locks, state.auth.userId);
        if (!blocker) {
          acquire(edit); // the holder is done: take the page
        } else if (edit.status === 'blocked') {
          edit.blockedBy = { name: blocker.ownerUserName, userId: blocker.ownerUserId, resource: blocker.resource };
        }
      }
      app.render();
    },

    /** @param {{resource: Resource}} detail */
    lockReleased({ resource }) {
      const edit = state.edit;
      if (!waitingForOthers(edit)) {
        return;
      }
      const mine = edit.resource;
      // Without its configurator (not known yet) the page can only match a release that has none either.
      if (mine.configuratorId ? conflicts(mine, resource) : resource.configuratorId === mine.configuratorId) {
        acquire(edit);
      }
    },

    /**
     * After a drop that could not be resumed, asking again got a lock anew (`lock-acquired` with `retaken`,
     * after its `lock-lost`): a new grant. The open page is editable again under it (read again first, as
     * for any new grant); the lock of a page not open here is given back, as leaving the page would have,
     * unless the open page asked for it (a lock in its way).
     * @param {Lock} lock
     */
    retaken(lock) {
      const key = resourceKey(lock.resource);
      const edit = state.edit;
      if (edit && edit.key === key) {
        if (!edit.acquiring && edit.status !== 'missing') {
          app.toast('Reconnected. The page had been released meanwhile; it is yours again.');
          editWith(edit, lock);
        }
        return;
      }
      if (!edit?.steps?.some((step) => resourceKey(step) === key)) {
        app.session?.client.unlock(lock.resource).catch(() => {});
      }
    },

    /** @param {{resource: Resource, reason: string, refusal?: any}} detail */
    lockLost({ resource, reason, refusal }) {
      const edit = state.edit;
      if (!edit || edit.key !== resourceKey(resource)) {
        return;
      }
      if (refusal && refusal.code === 'LOCKED') {
        // Asking again was refused: someone has the page now. Say that it was lost, and why, beside who has it.
        blocked(edit, blockedByOf(refusal));
        edit.reason = lostReasonText(reason, app.session?.handover.takenOver(edit.key));
      } else if (reason === 'deleted') {
        Object.assign(edit, { status: 'missing' });
      } else {
        Object.assign(edit, { status: 'lost', reason: lostReasonText(reason, app.session?.handover.takenOver(edit.key)) });
      }
      app.render();
    },

    /** The socket is back after a drop: a page that waited for others asks again. */
    reconnected() {
      const edit = state.edit;
      if (waitingForOthers(edit)) {
        acquire(edit);
      }
    },
  };
}
