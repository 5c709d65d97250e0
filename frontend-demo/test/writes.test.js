// The demo's writes of the open page (app/writes.js) with fakes for the parts they reach: what a refused save
// tells the user, and that the change stays in the form.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWrites } from '../app/writes.js';
import { ApiError } from '../api.js';
import { initialState } from '../app/store.js';

const FILTERS = { type: 'item-subresource', configuratorId: 12, itemId: 5, page: 'filters' };

/** A demo editing item 5's filters (token 17), a change typed into filter 31; toasts are kept in `app.toasts`. */
function editing() {
  const state = initialState();
  state.edit = { key: 'item:5:filters', resource: FILTERS, status: 'editing', token: 17 };
  state.drafts.set('e:filters:31:expression', 'a == 2');
  state.draftBases.set('e:filters:31:expression', 'a == 1');
  const app = {
    state,
    render: () => {},
    toasts: [],
    toast: (text, kind) => { app.toasts.push({ text, kind }); return () => {}; },
    session: { client: { heldLock: () => ({ token: 17 }) } },
    configurator: { reload: async () => true, resync() {}, scheduleReload() {} },
    edit: { blocked() {} },
  };
  return { app, writes: createWrites(app) };
}

describe('the demo\u2019s writes', () => {
  it('a save refused with 401 says in words that the sign-in is no longer accepted and that the change is still in the form', async () => {
    const { app, writes } = editing();
    const refused = new ApiError(401, { message: 'the bearer token is not valid (signature, issuer, audience, expiry or subject)' });
    const saved = await writes.write(async (token) => {
      assert.equal(token, 17, 'sent with the page\u2019s fencing token');
      throw refused;
    });
    assert.equal(saved, false);
    assert.equal(app.toasts.length, 1);
    const [{ text, kind }] = app.toasts;
    assert.equal(kind, 'error');
    assert.match(text, /^Not saved: the server no longer accepts your sign-in/);
    assert.match(text, /Your change is still in the form/);
    assert.doesNotMatch(text, /bearer|token/i, 'not the server\u2019s words');
    assert.equal(app.state.drafts.get('e:filters:31:expression'), 'a == 2');
    assert.equal(app.state.edit.status, 'editing', 'the page stays the user\u2019s');
  });
});
