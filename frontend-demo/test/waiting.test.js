// The take-over and waiting APIs of editlock-client.js (docs/protocol.md §13, §14) against a scripted fake
// socket: promises for the direct replies, events (and client.locks / client.waiting) for the rest.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EditlockClient } from '../editlock-client.js';
import {
  FakeSocket, FILTERS, MemoryStorage, connected as connectedTo, events, installFakeSockets, lockOf as lockHeldBy, removeFakeSockets, until,
} from './support/scripted-server.js';

const lockOf = (token) => lockHeldBy(token, ['7', 'Tom']);

function connected(options = {}) {
  return connectedTo({
    token: 'jwt', requestTimeoutMs: 1000, backoffBaseMs: 5, backoffMaxMs: 20, resumeRetryDelaysMs: [10, 10, 10], ...options,
  }, { resumeToken: 'r', userName: 'Tom' });
}

const VARIABLES = { type: 'variables', configuratorId: 12 };
const STRUCTURE = { type: 'configurator', configuratorId: 12 };

/** The client waits in the line of `resource` at `position`. */
async function waitingFor(client, socket, resource, position) {
  const queued = client.waitFor(resource);
  await socket.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position }]);
  await queued;
}

/** The socket drops; resolves with the next one, welcomed. */
async function dropped(socket) {
  const next = FakeSocket.all.length;
  socket.drop();
  const second = await until(() => FakeSocket.all[next]);
  second.welcome('r2', 'Tom');
  return second;
}

/** The server refuses every resume the client tries (it retries RESUME_FAILED three times). */
async function refuseResume(socket) {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    await socket.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
  }
}

describe('take-over and waiting', () => {
  beforeEach(installFakeSockets);
  afterEach(removeFakeSockets);

  it('a grant from a line crossing its stop-waiting is released, not announced: the user left the line', async () => {
    const { client, socket } = await connected({ unlockRetryDelaysMs: [10] });
    await waitingFor(client, socket, FILTERS, 1);
    const acquired = events(client, 'lock-acquired');
    const left = client.stopWaiting(FILTERS);
    await until(() => socket.sent.find((frame) => frame.event === 'stop-waiting'));
    socket.push('lock-acquired', { lock: lockOf(31), released: [], queued: true });
    await socket.answer('stop-waiting', (frame) => ['not-waiting', { resource: frame.data.resource }]);
    await left;
    const unlock = await socket.answer('unlock-item-subresource', () => ['lock-released', { resource: FILTERS, reason: 'unlock' }]);
    assert.deepEqual(unlock.data, { itemId: 5, page: 'filters' });
    await until(() => client.heldLock(FILTERS) === undefined);
    assert.equal(acquired.length, 0, 'nobody here waits for the page any more');
    assert.equal(client.waiting.size, 0);
    client.close();
  });

  it('a grant from a line that arrives after the stop-waiting reply is released too: it travels apart from the reply', async () => {
    const { client, socket } = await connected({ unlockRetryDelaysMs: [10] });
    await waitingFor(client, socket, FILTERS, 1);
    const acquired = events(client, 'lock-acquired');
    const left = client.stopWaiting(FILTERS);
    await socket.answer('stop-waiting', (frame) => ['not-waiting', { resource: frame.data.resource }]);
    await left;
    socket.push('lock-acquired', { lock: lockOf(31), released: [], queued: true });
    await socket.answer('unlock-item-subresource', () => ['lock-released', { resource: FILTERS, reason: 'unlock' }]);
    await until(() => client.heldLock(FILTERS) === undefined);
    assert.equal(acquired.length, 0);
    client.close();
  });

  it('a line left while the connection was down is not joined again on the next socket: its stop-waiting goes there', async () => {
    const { client, socket } = await connected({ unlockRetryDelaysMs: [10] });
    await waitingFor(client, socket, FILTERS, 1);
    const left = client.stopWaiting(FILTERS);
    await until(() => socket.sent.find((frame) => frame.event === 'stop-waiting'));
    const second = await dropped(socket);
    await second.answer('resume', () => ['resumed', { locks: [] }]);
    await second.answer('stop-waiting', (frame) => ['not-waiting', { resource: frame.data.resource }]);
    await left;
    assert.equal(second.sent.filter((frame) => frame.event === 'wait-for').length, 0, 'the line was left');
    assert.equal(client.waiting.size, 0);
    client.close();
  });

  it('a queued reply that comes after the line served us resolves with the lock: the place is over', async () => {
    const { client, socket } = await connected();
    const waiting = client.waitFor(FILTERS);
    const frame = await until(() => socket.sent.find((sent) => sent.event === 'wait-for'));
    socket.push('lock-acquired', { lock: lockOf(31), released: [], queued: true });
    socket.push('queued', { resource: frame.data.resource, position: 1 }, frame.ref);
    assert.equal((await waiting).lock.token, 31);
    assert.equal(client.waiting.size, 0, 'no place left to show');
    assert.equal(client.heldLock(FILTERS).token, 31);
    client.close();
  });

  it('a take-over outcome that comes before the takeover-pending reply ends the request: the reply does not bring it back', async () => {
    const { client, socket } = await connected();
    const asked = client.requestTakeover(FILTERS, 'please');
    const frame = await until(() => socket.sent.find((sent) => sent.event === 'request-takeover'));
    socket.push('takeover-refused', { resource: FILTERS, byUserName: 'Sara' });
    socket.push('takeover-pending', { resource: frame.data.resource, deadline: new Date(Date.now() + 30_000).toISOString() }, frame.ref);
    await asked;
    assert.equal(client.takeovers.size, 0, 'no request left to show, to resume or to report lost');
    client.close();
  });

  it('a take-over granted before the takeover-pending reply leaves the lock held and no request standing', async () => {
    const { client, socket } = await connected();
    const asked = client.requestTakeover(FILTERS);
    const frame = await until(() => socket.sent.find((sent) => sent.event === 'request-takeover'));
    socket.push('takeover-granted', { lock: lockOf(41) });
    socket.push('takeover-pending', { resource: frame.data.resource, deadline: new Date(Date.now() + 30_000).toISOString() }, frame.ref);
    await asked;
    assert.equal(client.takeovers.size, 0);
    assert.equal(client.heldLock(FILTERS).token, 41);
    client.close();
  });

  it('a take-over request still unanswered after its deadline on the resumed socket is reported lost: its answer came during the drop', async () => {
    const { client, socket } = await connected({ takeoverAnswerGraceMs: 50 });
    const asked = client.requestTakeover(FILTERS, 'please');
    await socket.answer('request-takeover', (frame) => ['takeover-pending',
      { resource: frame.data.resource, deadline: new Date(Date.now() + 100).toISOString() }]);
    await asked;
    const failed = events(client, 'lock-failed');
    const second = await dropped(socket);
    await second.answer('resume', () => ['resumed', { locks: [] }]);
    await until(() => failed.length > 0, 2000);
    assert.equal(failed[0].code, 'DISCONNECTED');
    assert.deepEqual(failed[0].resource, FILTERS);
    assert.equal(client.takeovers.size, 0, 'the user may ask again');
    client.close();
  });

  it('a take-over request answered on the resumed socket before its deadline is not reported lost', async () => {
    // Long enough that the drop, the resume and the answer come before it, however busy the machine.
    const DEADLINE_MS = 2000;
    const { client, socket } = await connected({ takeoverAnswerGraceMs: 50 });
    const asked = client.requestTakeover(FILTERS, 'please');
    await socket.answer('request-takeover', (frame) => ['takeover-pending',
      { resource: frame.data.resource, deadline: new Date(Date.now() + DEADLINE_MS).toISOString() }]);
    await asked;
    const failed = events(client, 'lock-failed');
    const refused = events(client, 'takeover-refused');
    const second = await dropped(socket);
    await second.answer('resume', () => ['resumed', { locks: [] }]);
    second.push('takeover-refused', { resource: FILTERS, byUserName: 'Sara' });
    await until(() => refused.length > 0);
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS + 300)); // past the deadline and its grace
    assert.equal(failed.length, 0);
    client.close();
  });

  it('a lock-failed NOT_FOUND without ref ends the wait and the take-over request for a deleted page', async () => {
    const { client, socket } = await connected();
    await waitingFor(client, socket, FILTERS, 2);
    const asked = client.requestTakeover(VARIABLES);
    await socket.answer('request-takeover', (frame) => ['takeover-pending',
      { resource: frame.data.resource, deadline: '2026-01-01T00:00:30Z' }]);
    await asked;
    const failed = events(client, 'lock-failed');
    socket.push('lock-failed', { resource: FILTERS, code: 'NOT_FOUND', message: 'No item 5' });
    socket.push('lock-failed', { resource: VARIABLES, code: 'NOT_FOUND', message: 'No configurator 12' });
    assert.equal(failed.length, 2);
    assert.equal(client.waiting.size, 0);
    assert.equal(client.takeovers.size, 0);
    client.close();
  });

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
    assert.deepEqual(sent.data, { resource: FILTERS, accept: false, byUserId: '8' });
    assert.equal((await answered).accept, false);
    const late = client.answerTakeover(FILTERS, true);
    const lateSent = await socket.answer('answer-takeover', () => ['error', { code: 'NOT_FOUND', message: 'none' }]);
    assert.deepEqual(lateSent.data, { resource: FILTERS, accept: true }, 'the request answered is over: nobody to name');
    await assert.rejects(late, { code: 'NOT_FOUND' });
    client.close();
  });

  it('answerTakeover names the asker of the last takeover-requested, so a yes for one asker never answers the next', async () => {
    const { client, socket } = await connected();
    const deadline = new Date(Date.now() + 30_000).toISOString();
    socket.push('takeover-requested', { resource: FILTERS, byUserId: 'A', byUserName: 'Ann', message: '', deadline });
    const forA = client.answerTakeover(FILTERS, true);
    const sentForA = await socket.answer('answer-takeover', () => ['error', { code: 'UNAVAILABLE', message: 'down' }]);
    assert.deepEqual(sentForA.data, { resource: FILTERS, accept: true, byUserId: 'A' });
    await assert.rejects(forA, { code: 'UNAVAILABLE' });
    const again = client.answerTakeover(FILTERS, true); // A's request may still stand: the same asker again
    const sentAgain = await socket.answer('answer-takeover', () => ['error', { code: 'NOT_FOUND', message: 'none' }]);
    assert.deepEqual(sentAgain.data, { resource: FILTERS, accept: true, byUserId: 'A' });
    await assert.rejects(again, { code: 'NOT_FOUND' });
    // A left (the server tells nobody), and B asked: the client's answers name B from now on.
    socket.push('takeover-requested', { resource: { ...FILTERS, configuratorId: 12 }, byUserId: 'B', byUserName: 'Ben', message: '', deadline });
    const forB = client.answerTakeover(FILTERS, true);
    const sentForB = await socket.answer('answer-takeover', () => ['takeover-answered', { resource: FILTERS, accept: true }]);
    assert.deepEqual(sentForB.data, { resource: FILTERS, accept: true, byUserId: 'B' });
    await forB;
    // An app may name the asker itself (the one its dialog shows), or nobody (null).
    socket.push('takeover-requested', { resource: FILTERS, byUserId: 'C', byUserName: 'Cem', message: '', deadline });
    const named = client.answerTakeover(FILTERS, false, 'A');
    const sentNamed = await socket.answer('answer-takeover', () => ['error', { code: 'NOT_FOUND', message: 'none' }]);
    assert.deepEqual(sentNamed.data, { resource: FILTERS, accept: false, byUserId: 'A' });
    await assert.rejects(named, { code: 'NOT_FOUND' });
    const unnamed = client.answerTakeover(FILTERS, false, null);
    const sentUnnamed = await socket.answer('answer-takeover', (frame) => ['takeover-answered', frame.data]);
    assert.deepEqual(sentUnnamed.data, { resource: FILTERS, accept: false });
    await unnamed;
    client.close();
  });

  it('forgets the asker once the lock is lost', async () => {
    const { client, socket } = await connected();
    const locking = client.lock(FILTERS);
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(3), released: [] }]);
    await locking;
    socket.push('takeover-requested', { resource: FILTERS, byUserId: 'A', byUserName: 'Ann', message: '', deadline: 'soon' });
    socket.push('lock-lost', { resource: FILTERS, reason: 'idle' });
    const answered = client.answerTakeover(FILTERS, true);
    const sent = await socket.answer('answer-takeover', () => ['error', { code: 'NOT_FOUND', message: 'none' }]);
    assert.deepEqual(sent.data, { resource: FILTERS, accept: true });
    await assert.rejects(answered, { code: 'NOT_FOUND' });
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

  it('a not-waiting without ref ends a line the client waits in, and is not passed on for one it does not', async () => {
    const { client, socket } = await connected();
    await waitingFor(client, socket, FILTERS, 2);
    await waitingFor(client, socket, STRUCTURE, 1);
    const left = events(client, 'not-waiting');
    socket.push('not-waiting', { resource: VARIABLES, reason: 'idle' });
    socket.push('not-waiting', { resource: FILTERS, reason: 'expired' });
    socket.push('not-waiting', { resource: STRUCTURE });
    assert.deepEqual(left, [{ resource: FILTERS, reason: 'expired' }, { resource: STRUCTURE, reason: 'ended' }]);
    assert.equal(client.waiting.size, 0);
    socket.push('not-waiting', { resource: FILTERS, reason: 'expired' });
    assert.equal(left.length, 2, 'told once: the line was left already');
    client.close();
  });

  it('after a drop, a client that only waits in a line resumes and learns its current position', async () => {
    const { client, socket } = await connected();
    await waitingFor(client, socket, FILTERS, 2);
    const moved = events(client, 'queue-updated');
    const second = await dropped(socket);
    const resume = await second.answer('resume', () => ['resumed', { locks: [] }]);
    assert.equal(resume.data.resumeToken, 'r', 'the place is kept by the resume');
    const asked = await second.answer('wait-for', (frame) => ['queued', { resource: { ...frame.data.resource, configuratorId: 12 }, position: 1 }]);
    assert.deepEqual(asked.data.resource, { type: 'item-subresource', itemId: 5, page: 'filters' });
    await until(() => moved.length === 1);
    assert.equal(moved[0].position, 1, 'the position it moved to while the socket was gone');
    assert.equal(client.waiting.get('item:5:filters'), 1);
    client.close();
  });

  it('after a failed resume it takes its lines again, is granted a free page, and leaves a line it cannot rejoin', async () => {
    const { client, socket } = await connected();
    await waitingFor(client, socket, FILTERS, 1);
    await waitingFor(client, socket, VARIABLES, 1);
    await waitingFor(client, socket, STRUCTURE, 1);
    const moved = events(client, 'queue-updated');
    const acquired = events(client, 'lock-acquired');
    const left = events(client, 'not-waiting');
    const second = await dropped(socket);
    await refuseResume(second);
    for (let line = 0; line < 3; line += 1) {
      await second.answer('wait-for', ({ data: { resource } }) => {
        switch (resource.type) {
          case 'item-subresource': return ['queued', { resource, position: 4 }]; // the place was lost: at the back
          case 'variables': return ['lock-acquired', { lock: { ...lockOf(30), resource }, released: [] }]; // free by now
          default: return ['lock-failed', { resource, code: 'NOT_FOUND', message: 'No such configurator' }];
        }
      });
    }
    await until(() => moved.length === 1 && acquired.length === 1 && left.length === 1);
    assert.equal(client.waiting.get('item:5:filters'), 4, 'the position it has now, not the one it lost');
    assert.equal(acquired[0].queued, true);
    assert.equal(client.heldLock(VARIABLES).token, 30);
    assert.deepEqual(left[0].resource, STRUCTURE);
    assert.equal(left[0].reason, 'disconnect');
    assert.equal(left[0].refusal.code, 'NOT_FOUND');
    assert.deepEqual([...client.waiting.keys()], ['item:5:filters'], 'no line it is not in');
    client.close();
  });

  it('after a drop past the grace period it asks for its line again right after the first refused resume', async () => {
    const { client, socket } = await connected({ resumeRetryDelaysMs: [60_000] });
    await waitingFor(client, socket, FILTERS, 1);
    const moved = events(client, 'queue-updated');
    const second = await dropped(socket);
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'keeps nothing' }]);
    await second.answer('wait-for', ({ data: { resource } }) => ['queued', { resource, position: 2 }]);
    await until(() => moved.length === 1);
    assert.equal(client.waiting.get('item:5:filters'), 2, 'its place now, before the resume is tried again');
    assert.equal(second.sent.filter((frame) => frame.event === 'resume').length, 1);
    client.close();
  });

  it('a line that served the client while its socket was gone arrives with the resume as its grant', async () => {
    const { client, socket } = await connected();
    await waitingFor(client, socket, FILTERS, 1);
    const acquired = events(client, 'lock-acquired');
    const second = await dropped(socket);
    await second.answer('resume', () => ['resumed', { locks: [lockOf(31)] }]);
    await until(() => client.state === 'open');
    assert.deepEqual(acquired, [{ lock: lockOf(31), released: [], queued: true }]);
    assert.equal(client.waiting.size, 0);
    assert.equal(second.sent.some((f) => f.event === 'wait-for'), false, 'no line to rejoin');
    client.close();
  });

  it('after a drop a pending take-over request resumes; when the resume fails, lock-failed DISCONNECTED says it is gone', async () => {
    const { client, socket } = await connected();
    const pending = client.requestTakeover(FILTERS, 'please');
    await socket.answer('request-takeover', (frame) => ['takeover-pending', { resource: frame.data.resource, deadline: '2026-01-01T00:00:30Z' }]);
    await pending;
    assert.equal(client.takeovers.has('item:5:filters'), true);
    const failed = events(client, 'lock-failed');
    const second = await dropped(socket);
    await refuseResume(second);
    await until(() => failed.length === 1);
    assert.deepEqual(failed[0].resource, FILTERS);
    assert.equal(failed[0].code, 'DISCONNECTED');
    assert.equal(client.takeovers.size, 0);
    assert.equal(second.sent.some((f) => f.event === 'request-takeover'), false, 'the holder is not asked again unasked');
    client.close();
  });

  it('an outcome of a take-over ends the request it answers', async () => {
    const { client, socket } = await connected();
    const pending = client.requestTakeover(FILTERS);
    await socket.answer('request-takeover', (frame) => ['takeover-pending', { resource: frame.data.resource, deadline: '2026-01-01T00:00:30Z' }]);
    await pending;
    socket.push('takeover-refused', { resource: FILTERS, byUserName: 'Sara' });
    assert.equal(client.takeovers.size, 0);
    client.close();
  });

  it('a page that only waits in a line remembers it for a reload; the reloaded page resumes and learns its place', async () => {
    const storage = new MemoryStorage();
    const { client: before, socket } = await connected({ resumeStorage: storage });
    await waitingFor(before, socket, FILTERS, 2);
    before.rememberForReload(); // pagehide of a page that unloads
    assert.notEqual(storage.getItem('editlock.resume'), null, 'kept although the page holds no lock');

    const after = new EditlockClient({
      token: 'jwt', url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, resumeStorage: storage,
      reloadResumeRetryDelaysMs: [10], requestTimeoutMs: 1000,
    });
    const ready = after.connect();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('r2', 'Tom');
    const resume = await second.answer('resume', () => ['resumed', { locks: [] }]);
    assert.equal(resume.data.resumeToken, 'r');
    await second.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 2 }]);
    await ready;
    assert.equal(after.waiting.get('item:5:filters'), 2, 'the line is known before the app asks');
    after.close();
    before.close();
  });
  it('a reloaded page keeps the take-over requests of the page before: their outcome comes to it, a grant with the resume too', async () => {
    const storage = new MemoryStorage();
    const { client: before, socket } = await connected({ resumeStorage: storage });
    const deadline = '2026-01-01T00:00:30Z';
    for (const resource of [STRUCTURE, VARIABLES]) {
      const asked = before.requestTakeover(resource);
      await socket.answer('request-takeover', (frame) => ['takeover-pending', { resource: frame.data.resource, deadline }]);
      await asked;
    }
    before.rememberForReload(); // pagehide of a page that unloads: it holds no lock, it only asks

    const after = new EditlockClient({
      token: 'jwt', url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, resumeStorage: storage,
      reloadResumeRetryDelaysMs: [10], requestTimeoutMs: 1000,
    });
    const resumed = events(after, 'resumed');
    const granted = events(after, 'takeover-granted');
    const ready = after.connect();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('r2', 'Tom');
    const structure = { ...lockOf(30), resource: STRUCTURE }; // handed over while no page listened
    const resume = await second.answer('resume', () => ['resumed', { locks: [structure] }]);
    await ready;
    assert.equal(resume.data.resumeToken, 'r', 'kept although the page held no lock');
    assert.deepEqual(resumed, [{ locks: [structure], reload: true,
      takeovers: [{ resource: STRUCTURE, deadline }, { resource: VARIABLES, deadline }] }]);
    assert.deepEqual(granted, [{ lock: structure }], 'told as a take-over, not only as a resumed lock');
    assert.deepEqual([...after.takeovers.keys()], ['configurator:12:variables'], 'the request still standing');
    second.push('takeover-refused', { resource: VARIABLES, byUserName: 'Sara' });
    assert.equal(after.takeovers.size, 0);
    after.close();
    before.close();
  });

  // Every socket of the user hears of a line's grant, a take-over's grant and a place in line (docs/protocol.md
  // §13, §14), but only the sockets that asked keep them: a tab that asks for them again after a drop would keep
  // the page the user's, for nobody, once the tab that asked is closed.

  it('a grant from another tab\u2019s line is shown, but not asked for again after a drop: only the tab that asked keeps it', async () => {
    const { client, socket } = await connected();
    const acquired = events(client, 'lock-acquired');
    socket.push('queue-updated', { resource: FILTERS, position: 1 }); // the place of another tab of Tom's
    socket.push('lock-acquired', { lock: lockOf(31), released: [], queued: true });
    assert.equal(acquired.length, 1, 'told, as every tab of the user is');
    assert.equal(client.heldLock(FILTERS).token, 31);
    const second = await dropped(socket);
    await until(() => client.state === 'open' || second.sent.length > 0);
    assert.deepEqual(second.sent.map((f) => f.event), [], 'no resume, no re-entry: this socket kept nothing');
    await until(() => client.state === 'open');
    const lost = events(client, 'lock-lost');
    second.push('lock-lost', { resource: FILTERS, reason: 'disconnect' }); // the tab that asked was closed
    assert.deepEqual(lost, [{ resource: FILTERS, reason: 'disconnect' }]);
    assert.equal(client.heldLock(FILTERS), undefined);
    client.close();
  });

  it('a grant of another tab that ended during a drop is reported lost when the watch again no longer lists it', async () => {
    const { client, socket } = await connected();
    const watching = client.watch(12);
    await socket.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [] }]);
    await watching;
    socket.push('lock-acquired', { lock: lockOf(31), released: [], queued: true }); // another tab's line
    const lost = events(client, 'lock-lost');
    const updated = events(client, 'lock-updated');
    const second = await dropped(socket);
    // Meanwhile the other tab was closed: its lock-lost went to the socket that dropped.
    await second.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [] }]);
    await until(() => updated.length === 1);
    assert.deepEqual(lost, [{ resource: FILTERS, reason: 'expired' }], 'told before the state that no longer has it');
    assert.equal(client.heldLock(FILTERS), undefined);
    client.close();
  });

  it('a grant of another tab that the watch again still lists as the user\u2019s is kept; another user\u2019s lock there is not the user\u2019s', async () => {
    const { client, socket } = await connected();
    const watching = client.watch(12);
    await socket.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [] }]);
    await watching;
    socket.push('lock-acquired', { lock: lockOf(31), released: [], queued: true });
    const variables = { ...lockOf(32), resource: VARIABLES };
    socket.push('takeover-granted', { lock: variables }); // another tab's take-over
    const lost = events(client, 'lock-lost');
    const second = await dropped(socket);
    const { token, ...shown } = lockOf(31); // watchers are not told tokens
    const sara = { ...variables, token: undefined, ownerUserId: '8', ownerUserName: 'Sara' };
    await second.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [shown, sara] }]);
    await until(() => client.heldLock(VARIABLES) === undefined);
    assert.equal(client.heldLock(FILTERS).token, token);
    assert.deepEqual(lost, [{ resource: VARIABLES, reason: 'expired' }]);
    client.close();
  });

  it('a place in line of another tab is shown, but not joined again after a drop', async () => {
    const { client, socket } = await connected();
    socket.push('queue-updated', { resource: FILTERS, position: 2 });
    assert.equal(client.waiting.get('item:5:filters'), 2);
    const second = await dropped(socket);
    await until(() => client.state === 'open' || second.sent.length > 0);
    assert.deepEqual(second.sent.map((f) => f.event), [], 'no resume, no wait-for');
    const left = events(client, 'not-waiting');
    second.push('not-waiting', { resource: FILTERS, reason: 'disconnect' }); // the tab that waited was closed
    assert.deepEqual(left, [{ resource: FILTERS, reason: 'disconnect' }]);
    assert.equal(client.waiting.size, 0);
    client.close();
  });

  it('a page handed over to another tab is shown, but not asked for again after a drop', async () => {
    const { client, socket } = await connected();
    const granted = events(client, 'takeover-granted');
    socket.push('takeover-granted', { lock: lockOf(41) });
    assert.equal(granted.length, 1);
    assert.equal(client.heldLock(FILTERS).token, 41);
    const second = await dropped(socket);
    await until(() => client.state === 'open' || second.sent.length > 0);
    assert.deepEqual(second.sent.map((f) => f.event), []);
    client.close();
  });

  it('after a failed resume it asks again only for what it asked for itself: its locks, its own grants, its lines', async () => {
    const { client, socket } = await connected();
    const ITEM_6 = { ...FILTERS, itemId: 6 };
    const ITEM_7 = { ...FILTERS, itemId: 7 };
    const locked = client.lock(VARIABLES);
    await socket.answer('lock-variables', () => ['lock-acquired', { lock: { ...lockOf(40), resource: VARIABLES }, released: [] }]);
    await locked;
    const asked = client.requestTakeover(ITEM_6);
    await socket.answer('request-takeover', (frame) => ['takeover-pending', { resource: frame.data.resource, deadline: '2026-01-01T00:00:30Z' }]);
    await asked;
    socket.push('takeover-granted', { lock: { ...lockOf(42), resource: ITEM_6 } }); // its own request's grant
    await waitingFor(client, socket, FILTERS, 3);
    // What other tabs of Tom's asked for: a configurator handed over, a turn in line, a place in line.
    socket.push('takeover-granted', { lock: { ...lockOf(43), resource: STRUCTURE } });
    socket.push('lock-acquired', { lock: { ...lockOf(44), resource: ITEM_7 }, released: [], queued: true });
    socket.push('queue-updated', { resource: { ...FILTERS, itemId: 8 }, position: 1 });

    const second = await dropped(socket);
    const refusing = refuseResume(second);
    await until(() => second.sent.some((f) => f.event.startsWith('lock-')));
    const lockRequests = () => second.sent.filter((f) => f.event.startsWith('lock-')).map((f) => [f.event, f.data]);
    assert.deepEqual(lockRequests(), [['lock-variables', { configuratorId: 12 }], ['lock-item-subresource', { itemId: 6, page: 'filters' }]]);
    await second.answer('lock-variables', () => ['lock-acquired', { lock: { ...lockOf(40), resource: VARIABLES }, released: [] }]);
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: { ...lockOf(42), resource: ITEM_6 }, released: [] }]);
    const line = await second.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 3 }]);
    assert.deepEqual(line.data.resource, { type: 'item-subresource', itemId: 5, page: 'filters' });
    await refusing;
    await until(() => client.state === 'open');
    assert.deepEqual(lockRequests().length, 2, 'not the grants of the other tabs');
    assert.equal(second.sent.filter((f) => f.event === 'wait-for').length, 1, 'not the line of another tab');
    assert.equal(client.heldLock(STRUCTURE).token, 43, 'still shown: the user holds it');
    client.close();
  });

  it('a page keeps for its reload only what it asked for itself', async () => {
    const storage = new MemoryStorage();
    const { client, socket } = await connected({ resumeStorage: storage });
    socket.push('queue-updated', { resource: FILTERS, position: 2 });
    socket.push('takeover-granted', { lock: { ...lockOf(30), resource: STRUCTURE } });
    client.rememberForReload();
    assert.equal(storage.getItem('editlock.resume'), null, 'its socket keeps nothing for a reloaded page to resume');
    await waitingFor(client, socket, VARIABLES, 1);
    client.rememberForReload();
    assert.deepEqual(JSON.parse(storage.getItem('editlock.resume')).waiting, ['configurator:12:variables']);
    client.close();
  });

  it('resumed after a reconnect says it is no reload and lists the take-over requests resumed; a grant among them follows it', async () => {
    const { client, socket } = await connected();
    const deadline = new Date(Date.now() + 30_000).toISOString();
    for (const resource of [STRUCTURE, VARIABLES]) {
      const asked = client.requestTakeover(resource);
      await socket.answer('request-takeover', (frame) => ['takeover-pending', { resource: frame.data.resource, deadline }]);
      await asked;
    }
    const order = [];
    ['resumed', 'takeover-granted'].forEach((type) => client.addEventListener(type, (event) => order.push([type, event.detail])));
    const second = await dropped(socket);
    const structure = { ...lockOf(30), resource: STRUCTURE }; // handed over while the socket was gone
    await second.answer('resume', () => ['resumed', { locks: [structure] }]);
    await until(() => client.state === 'open');
    assert.deepEqual(order, [
      ['resumed', { locks: [structure], reload: false, takeovers: [{ resource: STRUCTURE, deadline }, { resource: VARIABLES, deadline }] }],
      ['takeover-granted', { lock: structure }],
    ]);
    assert.deepEqual([...client.takeovers.keys()], ['configurator:12:variables']);
    client.close();
  });
});
