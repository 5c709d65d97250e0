// The demo's edit session of the open page (app/edit-session.js) against a client on a scripted fake
// socket: what the page shows when the client reports its lock, and when it sends an unlock.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createEditSession } from '../app/edit-session.js';
import {
  FakeSocket, FILTERS, connected as connectedTo, installFakeSockets, lockOf, removeFakeSockets, until,
} from './support/scripted-server.js';

function connected() {
  return connectedTo({ token: 'jwt', requestTimeoutMs: 1000, backoffBaseMs: 5, backoffMaxMs: 20, resumeRetryDelaysMs: [10] });
}

/**
 * The parts of the demo an edit session reaches, around `client`; the client's events reach the session
 * as sign-in.js wires them. `pendingDeletes` is what `writes.sendPendingDeletes()` returns.
 */
function demoAround(client, { pendingDeletes = [] } = {}) {
  const app = {
    state: { edit: null, route: { view: 'item', configuratorId: 12 }, locks: [], auth: { userId: '7' } },
    render: () => {},
    session: { client, handover: { opened() {}, left() {} } },
    writes: { sendPendingDeletes: () => pendingDeletes },
  };
  app.edit = createEditSession(app);
  client.addEventListener('lock-lost', (event) => app.edit.lockLost(event.detail));
  return app;
}

describe('the demo\u2019s edit session', () => {
  beforeEach(installFakeSockets);
  afterEach(removeFakeSockets);

  it('a page whose grant ended during a drop is no longer editable, though asking again got the page anew', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client);
    app.edit.open('item:5:filters', { ...FILTERS });
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await until(() => app.state.edit.status === 'editing');

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(23), released: [] }]);
    await until(() => client.state === 'open');
    // Unsaved input in the form was made under grant 17: it must not go out with 23 as if nothing happened.
    assert.equal(app.state.edit.status, 'lost');
    assert.match(app.state.edit.reason, /connection was lost/);
    client.close();
  });
});
