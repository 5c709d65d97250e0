// The demo's take-over and waiting part (handover.js) against a client on a scripted fake socket: what
// the read-only banner shows of the lines, and the holder's take-over dialog.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { installHandover } from '../handover.js';
import {
  FILTERS, connected as connectedTo, installFakeSockets, removeFakeSockets,
} from './support/scripted-server.js';

function connected() {
  return connectedTo({ token: 'jwt', requestTimeoutMs: 1000 }, { resumeToken: 'r', userName: 'Tom' });
}

/** handover.js installed on `client`, with the app's state, toasts and redraws recorded. */
function handoverOn(client) {
  const app = { state: { edit: null }, toasts: [], renders: 0 };
  app.handover = installHandover({
    client, state: app.state, render: () => { app.renders += 1; }, toast: (text, kind) => app.toasts.push({ text, kind }),
    granted: () => {}, retry: () => {},
  });
  return app;
}

const EDIT = { key: 'item:5:filters', resource: FILTERS, status: 'blocked', blockedBy: { name: 'Sara' } };

describe('the demo\u2019s take-over and waiting part', () => {
  beforeEach(installFakeSockets);
  afterEach(removeFakeSockets);

  it('a line the client could not rejoin after a drop no longer shows a place, and the user is told', async () => {
    const { client, socket } = await connected();
    const app = handoverOn(client);
    const edit = { ...EDIT };
    const waiting = app.handover.waitForPage(edit);
    await socket.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 2 }]);
    await waiting;
    assert.deepEqual(app.state.handover.queue, { key: 'item:5:filters', position: 2 });

    client.dispatchEvent(new CustomEvent('not-waiting', { detail: { resource: FILTERS, reason: 'disconnect' } }));
    assert.equal(app.state.handover.queue, null);
    assert.match(app.toasts.at(-1).text, /no longer in line/);
    client.close();
  });

  it('a page opened while the client already waits in its line shows the place', async () => {
    const { client } = await connected();
    const app = handoverOn(client);
    client.waiting.set('item:5:filters', 3); // a reloaded tab rejoined the line before the page opened
    app.handover.opened({ ...EDIT });
    assert.deepEqual(app.state.handover.queue, { key: 'item:5:filters', position: 3 });
    client.close();
  });
});
