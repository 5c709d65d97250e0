// The take-over and waiting APIs of editlock-client.js (docs/protocol.md §13, §14) against a scripted fake
// socket: promises for the direct replies, events (and client.locks / client.waiting) for the rest.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  FILTERS, connected as connectedTo, events, installFakeSockets, lockOf as lockHeldBy, removeFakeSockets,
} from './support/scripted-server.js';

const lockOf = (token) => lockHeldBy(token, ['7', 'Tom']);

function connected() {
  return connectedTo({ token: 'jwt', requestTimeoutMs: 1000 }, { resumeToken: 'r', userName: 'Tom' });
}

describe('take-over and waiting', () => {
  beforeEach(installFakeSockets);
  afterEach(removeFakeSockets);

  it('requestTakeover resolves with the deadline; takeover-granted puts the lock in client.locks', async () => {
    const { client, socket } = await connected();
    const granted = events(client, 'takeover-granted');
    const pending = client.requestTakeover(FILTERS, 'typo in line 3');
    const sent = await socket.answer('request-takeover', (frame) => ['takeover-pending',
      { resource: frame.data.resource, deadline: '2026-01-01T00:00:30Z' }]);
    assert.deepEqual(sent.data, { resource: FILTERS, message: 'typo in line 3' });
    assert.equal((await pending).deadline, '2026-01-01T00:00:30Z');
    socket.push('takeover-granted', { lock: lockOf(18) });
    assert.equal(granted.length, 1);
    assert.equal(client.heldLock(FILTERS).token, 18);
    client.close();
  });

  it('requestTakeover rejects BUSY and NOT_HELD with their codes; refusals arrive as events', async () => {
    const { client, socket } = await connected();
    const refusedEvents = events(client, 'takeover-refused');
    const busy = client.requestTakeover(FILTERS);
    const sent = await socket.answer('request-takeover', () => ['lock-failed', { resource: FILTERS, code: 'BUSY', message: 'asked' }]);
    assert.deepEqual(sent.data, { resource: FILTERS });
    await assert.rejects(busy, { code: 'BUSY' });
    const notHeld = client.requestTakeover(FILTERS);
    await socket.answer('request-takeover', () => ['lock-failed', { resource: FILTERS, code: 'NOT_HELD', message: 'free' }]);
    await assert.rejects(notHeld, { code: 'NOT_HELD' });
    socket.push('takeover-refused', { resource: FILTERS, byUserName: 'Sara' });
    assert.deepEqual(refusedEvents, [{ resource: FILTERS, byUserName: 'Sara' }]);
    client.close();
  });

  it('the holder hears takeover-requested and answers it', async () => {
    const { client, socket } = await connected();
    const asked = events(client, 'takeover-requested');
    socket.push('takeover-requested', { resource: FILTERS, byUserId: '8', byUserName: 'Omar', message: 'please', deadline: 'soon' });
    assert.equal(asked[0].byUserName, 'Omar');
    const answered = client.answerTakeover(FILTERS, false);
    const sent = await socket.answer('answer-takeover', (frame) => ['takeover-answered', frame.data]);
    assert.deepEqual(sent.data, { resource: FILTERS, accept: false });
    assert.equal((await answered).accept, false);
    const late = client.answerTakeover(FILTERS, true);
    await socket.answer('answer-takeover', () => ['error', { code: 'NOT_FOUND', message: 'none' }]);
    await assert.rejects(late, { code: 'NOT_FOUND' });
    client.close();
  });

  it('waitFor resolves with the position, follows queue-updated, and a queued grant becomes a held lock', async () => {
    const { client, socket } = await connected();
    const acquired = events(client, 'lock-acquired');
    const moved = events(client, 'queue-updated');
    const queued = client.waitFor(FILTERS);
    await socket.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 2 }]);
    assert.deepEqual(await queued, { resource: FILTERS, position: 2 });
    assert.equal(client.waiting.get('item:5:filters'), 2);
    socket.push('queue-updated', { resource: FILTERS, position: 1 });
    assert.equal(moved[0].position, 1);
    assert.equal(client.waiting.get('item:5:filters'), 1);
    socket.push('lock-acquired', { lock: lockOf(19), released: [], queued: true });
    assert.equal(acquired.length, 1);
    assert.equal(acquired[0].queued, true);
    assert.equal(client.heldLock(FILTERS).token, 19);
    assert.equal(client.waiting.has('item:5:filters'), false);
    client.close();
  });

  it('waitFor of a free page resolves with the lock; stopWaiting leaves the line; LIMIT_EXCEEDED rejects', async () => {
    const { client, socket } = await connected();
    const free = client.waitFor(FILTERS);
    await socket.answer('wait-for', () => ['lock-acquired', { lock: lockOf(20), released: [] }]);
    assert.equal((await free).lock.token, 20);
    assert.equal(client.heldLock(FILTERS).token, 20);

    client.waiting.set('item:5:filters', 3);
    const left = client.stopWaiting(FILTERS);
    await socket.answer('stop-waiting', (frame) => ['not-waiting', { resource: frame.data.resource }]);
    await left;
    assert.equal(client.waiting.has('item:5:filters'), false);

    const tooMany = client.waitFor(FILTERS);
    await socket.answer('wait-for', () => ['error', { code: 'LIMIT_EXCEEDED', message: 'You wait in 20 lines already' }]);
    await assert.rejects(tooMany, { code: 'LIMIT_EXCEEDED' });
    client.close();
  });
});
