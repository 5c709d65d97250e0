// edit-session.js — the edit session of the open page: its lock is asked for when the page opens, the
// page is editable only while it is held, and it follows what the server says about it (someone else
// holds it, they are done, it was taken away, the connection came back).

import { blockingLock, conflicts, resourceKey } from '../editlock-client.js';
import { lostReasonText } from '../model.js';

/** @typedef {import('./store.js').Edit} Edit */
/** @typedef {import('../editlock-client.js').Lock} Lock */
/** @typedef {import('../editlock-client.js').Resource} Resource */

/** @param {Edit | null} edit @returns {edit is Edit} whether it waits for others (blocked, or could not ask) */
function waitingForOthers(edit) {
  return Boolean(edit && (edit.status === 'blocked' || edit.status === 'error'));
}

/** @param {import('./context.js').App} app */
export function createEditSession(app) {
  const { state } = app;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;

  /**
   * Whether the page of `key` is open again, in a new edit session: the lock is the same grant (a
   * re-entry), so an unlock meant for the session that was left would take it from the one now open.
   * @param {string} key
   */
  const reopened = (key) => state.edit !== null && state.edit.key === key;

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
      app.render();
    }
  }

  /**
   * @param {Edit} edit
   * @param {any} failure the client's EditlockError
   */
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

  /**
   * The page is left: its line and request go, pending deletes go out, then its lock is released.
   * @param {Edit} edit
   */
  function leave(edit) {
    clearTimeout(retryTimer);
    app.session?.handover.left(edit);
    // Deletes waiting for their Undo go out now, while the page's lock still fences them.
    const deletes = app.writes.sendPendingDeletes();
    const client = app.session?.client;
    if (client && client.heldLock(edit.resource)) {
      Promise.allSettled(deletes).then(() => {
        if (!reopened(edit.key) && client.heldLock(edit.resource)) {
          client.unlock(edit.resource).catch(() => {});
        }
      });
    }
  }

  /** @param {Edit} edit @param {{name: string, userId?: string}} blockedBy */
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
     * The open page was handed to us (a take-over, or our turn in the line): it is editable now.
     * @param {Lock} lock
     */
    granted(lock) {
      const edit = state.edit;
      if (edit && edit.key === resourceKey(lock.resource)) {
        Object.assign(edit, { status: 'editing', token: lock.token, blockedBy: null, reason: null, message: null });
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
          edit.blockedBy = { name: blocker.ownerUserName, userId: blocker.ownerUserId };
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

    /** @param {{resource: Resource, reason: string, refusal?: any}} detail */
    lockLost({ resource, reason, refusal }) {
      const edit = state.edit;
      if (!edit || edit.key !== resourceKey(resource)) {
        return;
      }
      if (refusal && refusal.code === 'LOCKED') {
        blocked(edit, { name: refusal.lockedBy, userId: refusal.lockedByUserId });
      } else if (reason === 'deleted') {
        Object.assign(edit, { status: 'missing' });
      } else {
        Object.assign(edit, { status: 'lost', reason: lostReasonText(reason) });
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
