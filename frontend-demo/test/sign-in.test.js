// The demo's signing out (app/sign-in.js) with fakes for the parts it reaches: the socket closes only
// once the deletes still waiting for their Undo are answered.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createSignIn } from '../app/sign-in.js';
import { initialState } from '../app/store.js';
import { MemoryStorage, deferred, settled } from './support/scripted-server.js';

/** A signed-in demo whose writes have `deletes` waiting to be sent; the client records its closes. */
function signedIn(deletes) {
  const closes = [];
  const app = {
    state: { ...initialState(), auth: { token: 't', userId: 'demo-sara', name: 'Sara', admin: false }, route: { view: 'item', configuratorId: 12 } },
    render: () => {},
    toast: () => () => {},
    session: { client: { close: (reason) => closes.push(reason) }, handover: { close() {} } },
    sentWhileSignedIn: null,
  };
  app.writes = {
    sendPendingDeletes: () => {
      app.sentWhileSignedIn = app.session !== null;
      return deletes;
    },
  };
  return { app, closes, signIn: createSignIn(app) };
}

describe('the demo\u2019s sign-out', () => {
  beforeEach(() => {
    globalThis.localStorage = new MemoryStorage();
    globalThis.history = { replaceState() {} };
  });
  afterEach(() => {
    delete globalThis.localStorage;
    delete globalThis.history;
  });

  it('closes the socket, which frees the page\u2019s lock, only once the pending deletes are answered', async () => {
    const deleted = deferred();
    const { app, closes, signIn } = signedIn([deleted.promise]);
    const done = signIn.signOut();
    assert.equal(app.sentWhileSignedIn, true, 'the deletes went out with the session and its lock');
    assert.equal(app.state.auth, null, 'the screen is signed out at once');
    await settled();
    assert.deepEqual(closes, [], 'the lock still fences the delete');
    deleted.resolve(false); // refused or not, it is answered
    await done;
    assert.deepEqual(closes, ['signed out']);
  });

  it('closes at once when nothing waits to be deleted', async () => {
    const { closes, signIn } = signedIn([]);
    await signIn.signOut();
    assert.deepEqual(closes, ['signed out']);
  });
});
