// actions.js — what the views may do: each user action, passed on to the part of the demo that owns it.

import { resourceKey } from '../editlock-client.js';
import { ApiError } from '../api.js';
import { savedValue } from '../model.js';

/**
 * @param {import('./context.js').App} app
 */
export function createActions(app) {
  const { state } = app;
  /** @returns {import('./context.js').Session} */
  const session = () => /** @type {import('./context.js').Session} */ (app.session);
  return {
    signIn: app.signIn.signIn,
    signOut: app.signIn.signOut,
    toast: app.toast,
    go: app.navigation.go,
    /** @param {string} field @param {string} value */
    draft(field, value) {
      const base = savedValue(state.view, field);
      if (!state.draftBases.has(field) && typeof base === 'string') {
        state.draftBases.set(field, base); // what the user saw when they began to change it
      }
      state.drafts.set(field, value);
    },
    /** @param {string} prefix */
    clearDrafts(prefix) {
      for (const key of [...state.drafts.keys()]) {
        if (key.startsWith(prefix)) {
          state.drafts.delete(key);
          state.draftBases.delete(key);
        }
      }
    },
    retryEdit: () => app.edit.retry(),
    refreshList: () => app.configurator.loadList(),
    reloadConfigurator: () => { app.configurator.reload(); },
    /** @param {import('./store.js').Edit} edit @param {string} message */
    askHolder: (edit, message) => session().handover.askHolder(edit, message),
    /** @param {import('./store.js').Edit} edit */
    waitForPage: (edit) => session().handover.waitForPage(edit),
    /** @param {import('./store.js').Edit} edit */
    stopWaiting: (edit) => session().handover.stopWaiting(edit),
    /** @param {boolean} accept */
    answerTakeover: (accept) => session().handover.answer(accept),
    /**
     * @param {(api: import('../api.js').Api, token: number | undefined) => Promise<any>} action
     * @param {((result: any) => void) | null} [done] after a successful write
     */
    write: (action, done) => app.writes.write((token) => action(session().api, token), done),
    /**
     * @param {string} key
     * @param {string} noun
     * @param {(api: import('../api.js').Api, token: number | undefined) => Promise<any>} action
     */
    deleteWithUndo: (key, noun, action) => app.writes.deleteWithUndo(key, noun, (token) => action(session().api, token)),
    isPendingDelete: app.writes.isPendingDelete,
    /** @param {string} name @returns {Promise<boolean>} whether it was created */
    async createConfigurator(name) {
      try {
        const created = await session().api.createConfigurator(name.trim());
        location.hash = `#/c/${created.id}/structure`;
        return true;
      } catch (failure) {
        const error = /** @type {Error} */ (failure);
        app.toast(error instanceof ApiError && error.status === 400 ? 'Please give the configurator a name.' : error.message, 'error');
        return false;
      }
    },
    /** An administrator releases another user's lock. @param {import('../editlock-client.js').Lock} lock */
    async breakLock(lock) {
      try {
        await session().api.call('DELETE', `/api/locks/${encodeURIComponent(resourceKey(lock.resource))}`);
        app.toast(`Released ${lock.ownerUserName}\u2019s lock.`);
      } catch (failure) {
        app.toast(/** @type {Error} */ (failure).message, 'error');
      }
    },
  };
}
