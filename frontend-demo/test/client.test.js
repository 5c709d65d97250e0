// editlock-client.js against a scripted fake socket: replies, refusals, broadcasts, and the
// recovery after a drop (resume retried, re-entry, lock-lost) — paths a real network rarely shows.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EditlockClient, conflicts, resourceKey } from '../editlock-client.js';
import {
  FakeSocket, FILTERS, MemoryStorage, connected as connectedTo, deferred, events, installFakeSockets, lockOf, removeFakeSockets, settled, until,
} from './support/scripted-server.js';

function connected(options = {}) {
  return connectedTo({
    token: 'jwt', backoffBaseMs: 5, backoffMaxMs: 20, resumeRetryDelaysMs: [10, 10, 10], requestTimeoutMs: 1000, ...options,
  });
}

/** `promise`, or a rejection (no `code`) if it is still pending after `ms`: a promise never settled fails the test. */
function within(promise, ms = 500) {
  return Promise.race([promise, new Promise((resolve, reject) => setTimeout(() => reject(new Error('still pending')), ms))]);
}

/** A client that is not connected yet, with activity and page-hide listening off. */
function unconnected(options = {}) {
  return new EditlockClient({ token: 'jwt', url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, ...options });
}

/** A connected client that holds item 5's filters (token 17). */
async function holdingFilters(options = {}) {
  const { client, socket } = await connected(options);
  const granted = client.lockItemPage(5, 'filters');
  await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
  await granted;
  return { client, socket };
}

describe('EditlockClient', () => {
  beforeEach(installFakeSockets);
  afterEach(removeFakeSockets);

  it('connects with the token in the subprotocol and resolves with the welcome', async () => {
    const { client, socket } = await connected();
    assert.equal(socket.url, 'ws://test/locking');
    assert.deepEqual(socket.protocols, ['editlock', 'bearer.jwt']);
    assert.equal(client.welcome.resumeToken, 'resume-1');
    assert.equal(client.state, 'open');
    client.close();
  });

  it('resolves a lock with its token and rejects a refusal with who holds it', async () => {
    const { client, socket } = await connected();
    const granted = client.lockItemPage(5, 'filters');
    const request = await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    assert.deepEqual(request.data, { itemId: 5, page: 'filters' });
    assert.equal((await granted).token, 17);
    assert.equal(client.heldLock(FILTERS).token, 17);

    const refused = client.lockVariables(12);
    const blocking = { ...lockOf(0, ['8', 'Omar']), resource: { type: 'configurator', configuratorId: 12 } };
    delete blocking.token; // another user's lock carries no token
    await socket.answer('lock-variables', () => ['lock-failed', {
      resource: { type: 'variables', configuratorId: 12 }, code: 'LOCKED', message: 'Currently edited by Omar',
      lockedBy: 'Omar', lockedByUserId: '8', blocking,
    }]);
    const error = await refused.then(() => assert.fail('granted'), (failure) => failure);
    assert.equal(error.code, 'LOCKED');
    assert.equal(error.message, 'Currently edited by Omar');
    assert.equal(error.lockedBy, 'Omar');
    assert.equal(error.lockedByUserId, '8');
    assert.deepEqual(error.blocking, blocking);
    client.close();
  });

  it('emits broadcasts as events and forgets a lost lock', async () => {
    const { client, socket } = await holdingFilters();
    const updated = events(client, 'lock-updated');
    const lost = events(client, 'lock-lost');
    socket.push('lock-updated', { configuratorId: 12, locks: [] });
    socket.push('lock-lost', { resource: FILTERS, reason: 'admin' });
    assert.deepEqual(updated, [{ configuratorId: 12, locks: [] }]);
    assert.deepEqual(lost, [{ resource: FILTERS, reason: 'admin' }]);
    assert.equal(client.heldLock(FILTERS), undefined);
    client.close();
  });

  it('ignores a lock-lost for a lock it does not hold (another tab\u2019s grant that ended)', async () => {
    const { client, socket } = await connected();
    const lost = events(client, 'lock-lost');
    socket.push('lock-lost', { resource: FILTERS, reason: 'disconnect' });
    const granted = client.lockItemPage(5, 'filters');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await granted;
    assert.deepEqual(lost, [], 'no lock-lost is told for a lock this client never held');
    assert.equal(client.heldLock(FILTERS)?.token, 17, 'the grant that came after stays');
    client.close();
  });

  it('a lock released elsewhere (a hand-over) is still told lost when its lock-released comes first, as a watcher\u2019s', async () => {
    const { client, socket } = await holdingFilters();
    const lost = events(client, 'lock-lost');
    socket.push('lock-released', { resource: FILTERS, reason: 'taken-over', ownerUserId: '7', ownerUserName: 'Sara' });
    socket.push('lock-lost', { resource: FILTERS, reason: 'taken-over' });
    assert.deepEqual(lost, [{ resource: FILTERS, reason: 'taken-over' }]);
    assert.equal(client.heldLock(FILTERS), undefined);
    client.close();
  });

  it('after its node went away (1001), tries again without backing off for a while; after a drop, backs off', async () => {
    /** The delays of the client's first `count` reconnects after `close`, each refused before its welcome. */
    const delaysAfter = async (close, count) => {
      FakeSocket.all = [];
      const { client, socket } = await holdingFilters({ backoffBaseMs: 10, backoffMaxMs: 10_000 });
      const reconnecting = events(client, 'reconnecting');
      close(socket);
      for (let i = 1; i <= count; i += 1) {
        const next = await until(() => FakeSocket.all[i]);
        if (i < count) next.drop(); // refused, as by a node that still stops
      }
      client.close();
      return reconnecting.map((r) => r.delayMs);
    };
    const afterStop = await delaysAfter((socket) => socket.closeByServer(1001, 'node stopping'), 10);
    assert.ok(afterStop.slice(0, 9).every((delay) => delay <= 10), `quick attempts, then the back-off from its start: ${afterStop}`);
    const afterDrop = await delaysAfter((socket) => socket.drop(), 3);
    assert.ok(afterDrop[2] > 10, `a drop backs off: ${afterDrop}`);
  });

  it('after a drop reconnects, retries RESUME_FAILED, gets the same grant back and watches again', async () => {
    const { client, socket } = await connected();
    const watching = client.watch(12);
    await socket.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [] }]);
    await watching;
    const granted = client.lockItemPage(5, 'filters');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await granted;
    const resumed = events(client, 'resumed');
    const reconnected = new Promise((resolve) => client.addEventListener('connected', (e) => resolve(e.detail)));

    socket.drop();
    assert.equal(client.state, 'reconnecting');
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    const first = await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'still alive' }]);
    assert.equal(first.data.resumeToken, 'resume-1');
    // Asked for again at once, while the resume is tried again: a re-entry, the same grant.
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await second.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    await second.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [] }]);
    assert.equal((await reconnected).reconnected, true);
    assert.deepEqual(resumed.map((r) => r.locks[0].token), [17]);
    assert.equal(client.heldLock(FILTERS).token, 17);
    assert.equal(client.state, 'open');
    client.close();
  });

  it('retries a resume answered UNAVAILABLE: the token is still good', async () => {
    const { client, socket } = await holdingFilters();
    const reconnected = new Promise((resolve) => client.addEventListener('connected', (e) => resolve(e.detail)));

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    const first = await second.answer('resume', () => ['error', { code: 'UNAVAILABLE', message: 'store down' }]);
    const retry = await second.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    assert.equal(retry.data.resumeToken, first.data.resumeToken);
    assert.equal((await reconnected).reconnected, true);
    assert.equal(client.heldLock(FILTERS).token, 17);
    assert.equal(second.sent.filter((frame) => frame.event === 'lock-item-subresource').length, 0, 'nothing re-taken');
    client.close();
  });

  it('a socket that drops while it resumes leaves both tokens to the next, newest first: the locks are under one of them', async () => {
    const { client, socket } = await holdingFilters();

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'still alive' }]);
    second.drop(); // before the retry
    const third = await until(() => FakeSocket.all[2]);
    third.welcome('resume-3');
    // The second socket may keep the locks by now: it asked for them again before it dropped.
    const newest = await third.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'keeps nothing' }]);
    assert.equal(newest.data.resumeToken, 'resume-2', 'the newest socket first');
    const resume = await third.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    assert.equal(resume.data.resumeToken, 'resume-1', 'then the one before');
    await until(() => client.state === 'open');
    assert.equal(client.heldLock(FILTERS).token, 17);

    third.drop();
    const fourth = await until(() => FakeSocket.all[3]);
    fourth.welcome('resume-4');
    const next = await fourth.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    assert.equal(next.data.resumeToken, 'resume-3', 'resumed onto the third socket, the locks are under its token');
    client.close();
  });

  it('a resume whose socket dropped before its reply is resumed from that socket next: the server may have moved it all', async () => {
    const { client, socket } = await holdingFilters();
    const lost = events(client, 'lock-lost');

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await until(() => second.sent.find((frame) => frame.event === 'resume'));
    second.drop(); // the server moved the locks onto the second socket; its reply is lost
    const third = await until(() => FakeSocket.all[2]);
    third.welcome('resume-3');
    const resume = await third.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    assert.equal(resume.data.resumeToken, 'resume-2');
    await until(() => client.state === 'open');
    assert.equal(client.heldLock(FILTERS).token, 17);
    assert.deepEqual(lost, []);
    client.close();
  });

  it('asks for the locks again right after the first RESUME_FAILED, while the resume is tried again', async () => {
    const { client, socket } = await holdingFilters({ resumeRetryDelaysMs: [200, 200] });
    const lost = events(client, 'lock-lost');

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'still alive' }]);
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    assert.equal(second.sent.filter((frame) => frame.event === 'resume').length, 1, 'before the resume went again');
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'still alive' }]);
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'still alive' }]);
    await until(() => client.state === 'open');
    assert.equal(client.heldLock(FILTERS).token, 17, 'the same grant');
    assert.deepEqual(lost, []);
    assert.equal(second.sent.filter((frame) => frame.event === 'lock-item-subresource').length, 1, 'asked for once');
    client.close();
  });

  it('after a drop past the grace period, lets the app ask for a page once its locks are known, before the resume retries end', async () => {
    const { client, socket } = await holdingFilters({ resumeRetryDelaysMs: [60_000] });
    const lost = events(client, 'lock-lost');

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'keeps nothing' }]);
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await until(() => client.state === 'open');

    const variables = client.lockVariables(12);
    const request = await second.answer('lock-variables', () => ['lock-acquired', {
      lock: { ...lockOf(18), resource: { type: 'variables', configuratorId: 12 } }, released: [],
    }]);
    assert.deepEqual(request.data, { configuratorId: 12 });
    assert.equal((await variables).token, 18);
    assert.equal(second.sent.filter((frame) => frame.event === 'resume').length, 1, 'the second resume still waits');
    assert.equal(client.heldLock(FILTERS).token, 17);
    assert.deepEqual(lost, []);
    client.close();
  });

  it('sends an unlock answered UNAVAILABLE again: nothing was released', async () => {
    const { client, socket } = await holdingFilters({ unlockRetryDelaysMs: [10] });

    const released = client.unlockItemPage(5, 'filters');
    await socket.answer('unlock-item-subresource', () => ['unlock-failed', { resource: FILTERS, code: 'UNAVAILABLE', message: 'store' }]);
    assert.equal(client.heldLock(FILTERS).token, 17, 'still held until the server releases it');
    await socket.answer('unlock-item-subresource', () => ['lock-released', { resource: FILTERS, reason: 'unlock' }]);
    assert.equal((await released).reason, 'unlock');
    assert.equal(client.heldLock(FILTERS), undefined);
    client.close();
  });

  it('an unlock waiting to go again is called off by locking the page meanwhile: the new grant stays', async () => {
    const retryDelayMs = 100;
    const { client, socket } = await holdingFilters({ unlockRetryDelaysMs: [retryDelayMs] });

    const released = client.unlockItemPage(5, 'filters');
    await socket.answer('unlock-item-subresource', () => ['unlock-failed', { resource: FILTERS, code: 'UNAVAILABLE', message: 'store' }]);
    const again = client.lockItemPage(5, 'filters'); // within the unlock's wait before it goes again
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await again;
    await assert.rejects(released, (failure) => failure.code === 'UNAVAILABLE');

    await new Promise((resolve) => { setTimeout(resolve, 3 * retryDelayMs); });
    assert.equal(socket.sent.filter((frame) => frame.event === 'unlock-item-subresource').length, 1, 'the unlock did not go again');
    assert.equal(client.heldLock(FILTERS).token, 17);
    client.close();
  });

  it('an unlock whose reply was lost with the socket goes again on the next, and the lock is not asked for again', async () => {
    const { client, socket } = await holdingFilters({ unlockRetryDelaysMs: [10] });

    const released = client.unlockItemPage(5, 'filters');
    await until(() => socket.sent.find((frame) => frame.event === 'unlock-item-subresource'));
    socket.drop(); // the server may have released the page: its reply is lost
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'keeps nothing' }]);
    }
    const unlock = await second.answer('unlock-item-subresource', () => ['unlock-failed', { resource: FILTERS, code: 'NOT_HELD', message: 'not held' }]);
    assert.deepEqual(unlock.data, { itemId: 5, page: 'filters' });
    await assert.rejects(released, (failure) => failure.code === 'NOT_HELD');
    assert.equal(second.sent.filter((frame) => frame.event === 'lock-item-subresource').length, 0, 'a page left is not locked again');
    assert.equal(client.heldLock(FILTERS), undefined);
    client.close();
  });

  it('when resume keeps failing, asks again (re-entry) and reports what it cannot get back as lost', async () => {
    const { client, socket } = await holdingFilters();
    const lost = events(client, 'lock-lost');

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
    }
    await second.answer('lock-item-subresource', () => ['lock-failed', {
      resource: FILTERS, code: 'LOCKED', message: 'Currently edited by Omar', lockedBy: 'Omar', lockedByUserId: '8',
    }]);
    await until(() => lost.length > 0);
    assert.equal(lost[0].reason, 'disconnect');
    assert.equal(lost[0].refusal.lockedBy, 'Omar');
    assert.equal(client.heldLock(FILTERS), undefined);
    client.close();
  });

  it('when resume fails and asking again gets a new grant, reports the old one lost and the new one as acquired', async () => {
    const { client, socket } = await holdingFilters();
    const order = [];
    const lost = events(client, 'lock-lost');
    const acquired = events(client, 'lock-acquired');
    ['lock-lost', 'lock-acquired'].forEach((type) => client.addEventListener(type, () => order.push(type)));

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
    }
    // The old grant ended while the socket was gone (someone else may have held the page): a new token.
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(23), released: [] }]);
    await until(() => client.state === 'open');
    assert.deepEqual(lost, [{ resource: FILTERS, reason: 'disconnect' }], 'the grant the app’s edits were made under is gone');
    assert.deepEqual(acquired, [{ lock: lockOf(23), released: [], retaken: true }]);
    assert.deepEqual(order, ['lock-lost', 'lock-acquired']);
    assert.equal(client.heldLock(FILTERS).token, 23);
    client.close();
  });

  it('when resume fails and asking again gives back the same grant, nothing is reported', async () => {
    const { client, socket } = await holdingFilters();
    const lost = events(client, 'lock-lost');
    const acquired = events(client, 'lock-acquired');

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
    }
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]); // a re-entry
    await until(() => client.state === 'open');
    assert.deepEqual(lost, []);
    assert.deepEqual(acquired, []);
    assert.equal(client.heldLock(FILTERS).token, 17);
    client.close();
  });

  it('requests made while reconnecting wait for the new socket', async () => {
    const { client, socket } = await connected();
    socket.drop();
    const touched = client.touch();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await second.answer('touch', () => ['touched', {}]);
    await touched;
    client.close();
  });

  it('touches on activity at most once per interval', async (t) => {
    const activity = new EventTarget();
    const { client, socket } = await connected({ activityTarget: activity, touchIntervalMs: 60_000 });
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() }); // the interval is read from the clock
    const touches = () => socket.sent.filter((f) => f.event === 'touch').length;
    for (let i = 0; i < 5; i += 1) {
      activity.dispatchEvent(new Event('pointerdown'));
      activity.dispatchEvent(new Event('keydown'));
    }
    assert.equal(touches(), 1, 'ten activity events, one touch');
    await socket.answer('touch', () => ['touched', {}]);
    t.mock.timers.tick(59_999);
    activity.dispatchEvent(new Event('wheel'));
    assert.equal(touches(), 1, 'no touch again within the interval');
    t.mock.timers.tick(1);
    activity.dispatchEvent(new Event('touchstart'));
    assert.equal(touches(), 2, 'the first activity after the interval touches again');
    await socket.answer('touch', () => ['touched', {}]);
    client.close();
  });

  it('closes with 1000', async () => {
    const { client, socket } = await connected();
    client.close();
    assert.equal(socket.closedWith, 1000);
    assert.equal(client.state, 'closed');
  });

  it('a reloaded page resumes the locks the page before it held, before any request of the app', async () => {
    const storage = new MemoryStorage();
    const { client: before, socket } = await connected({ resumeStorage: storage });
    const granted = before.lockItemPage(5, 'filters');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await granted;
    before.rememberForReload(); // pagehide of a page that unloads

    const after = new EditlockClient({
      token: 'jwt', url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, resumeStorage: storage,
      reloadResumeRetryDelaysMs: [10], requestTimeoutMs: 1000,
    });
    const resumed = events(after, 'resumed');
    const ready = after.connect();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    const relock = after.lockItemPage(5, 'filters'); // the app asks at once; it must wait for the resume
    const first = await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'not seen closed yet' }]);
    assert.equal(first.data.resumeToken, 'resume-1');
    await second.answer('resume', () => {
      assert.equal(second.sent.some((f) => f.event === 'lock-item-subresource'), false, 'the app\u2019s request waits for the resume');
      return ['resumed', { locks: [lockOf(17)] }];
    });
    await ready;
    assert.deepEqual(resumed, [{ locks: [lockOf(17)], reload: true, takeovers: [] }]);
    assert.equal(after.heldLock(FILTERS).token, 17);
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    assert.equal((await relock).token, 17);
    assert.equal(storage.getItem('editlock.resume'), null, 'a remembered token is used once');
    after.close();
    before.close();
  });

  it('a page reloaded while the resume after a long drop is still retried presents the new socket\u2019s token first', async () => {
    const storage = new MemoryStorage();
    const { client: before, socket } = await holdingFilters({ resumeStorage: storage, resumeRetryDelaysMs: [60_000] });
    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'keeps nothing' }]);
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await until(() => before.state === 'open');
    before.rememberForReload(); // the re-taken lock is the new socket's now, the retries still wait

    const after = new EditlockClient({
      token: 'jwt', url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, resumeStorage: storage,
      reloadResumeRetryDelaysMs: [10], requestTimeoutMs: 1000,
    });
    const ready = after.connect();
    const third = await until(() => FakeSocket.all[2]);
    third.welcome('resume-3');
    const resume = await third.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    await ready;
    assert.equal(resume.data.resumeToken, 'resume-2', 'the socket that holds the page now');
    assert.equal(after.heldLock(FILTERS).token, 17);
    after.close();
    before.close();
  });

  it('remembers nothing without locks, nor another user\u2019s token, and forgets on close', async () => {
    const storage = new MemoryStorage();
    const { client } = await connected({ resumeStorage: storage });
    client.rememberForReload();
    assert.equal(storage.getItem('editlock.resume'), null, 'no locks, nothing to resume');
    storage.setItem('editlock.resume', JSON.stringify({ resumeToken: 'theirs', userId: '8', at: Date.now() }));
    client.close();
    assert.equal(storage.getItem('editlock.resume'), null, 'signing out forgets the token');

    storage.setItem('editlock.resume', JSON.stringify({ resumeToken: 'theirs', userId: '8', at: Date.now() }));
    const other = new EditlockClient({ token: 'jwt', url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, resumeStorage: storage });
    const ready = other.connect();
    const socket = await until(() => FakeSocket.all[1]);
    socket.welcome('resume-3'); // user 7: the remembered token is user 8's
    await ready;
    assert.equal(socket.sent.filter((f) => f.event === 'resume').length, 0, 'no resume with another user\u2019s token');
    other.close();
  });

  it('locking a second configurator reports the first lost, replaced: the one-configurator rule released it', async () => {
    const { client, socket } = await connected();
    const c12 = { type: 'configurator', configuratorId: 12 };
    const c13 = { type: 'configurator', configuratorId: 13 };
    const first = client.lockConfigurator(12);
    await socket.answer('lock-configurator', () => ['lock-acquired', { lock: { ...lockOf(17), resource: c12 }, released: [] }]);
    await first;
    const lost = events(client, 'lock-lost');
    const second = client.lockConfigurator(13);
    await socket.answer('lock-configurator', () => ['lock-acquired', {
      lock: { ...lockOf(18), resource: c13 }, released: [c12, { type: 'configurator', configuratorId: 14 }],
    }]);
    assert.equal((await second).token, 18);
    assert.deepEqual(lost, [{ resource: c12, reason: 'replaced' }], 'once, and not for one this client did not hold');
    assert.deepEqual([...client.locks.keys()], ['configurator:13']);
    client.close();
  });

  it('close() before the welcome rejects the connect() waiting for it with CLOSED', async () => {
    const client = unconnected();
    const ready = client.connect();
    await until(() => FakeSocket.all[0]);
    client.close();
    await assert.rejects(within(ready), { code: 'CLOSED' });
    assert.equal(client.state, 'closed');
  });

  it('close() while the token provider runs rejects connect() with CLOSED, and that token opens no socket', async () => {
    const token = deferred();
    const client = unconnected({ token: () => token.promise });
    const ready = client.connect();
    client.close();
    await assert.rejects(within(ready), { code: 'CLOSED' });
    const again = client.connect(); // connected anew while the first provider call still runs
    token.resolve('jwt');
    const socket = await until(() => FakeSocket.all[0]);
    socket.welcome('resume-1');
    await within(again);
    await settled();
    assert.equal(FakeSocket.all.length, 1, 'one socket, for the connect() that is not over');
    client.close();
  });

  it('a request made while reconnecting is not timed out while no socket is ready: its time runs from when it is sent', async () => {
    const { client, socket } = await connected({ requestTimeoutMs: 50 });
    socket.drop();
    const touched = client.touch();
    const second = await until(() => FakeSocket.all[1]);
    await new Promise((resolve) => setTimeout(resolve, 150)); // longer than requestTimeoutMs
    second.welcome('resume-2');
    await second.answer('touch', () => ['touched', {}]);
    await touched;
    client.close();
  });

  it('a request made while the first socket opens is rejected with CLOSED at once when that socket fails', async () => {
    const client = unconnected({ requestTimeoutMs: 2000 });
    const ready = client.connect();
    const touched = client.touch();
    const socket = await until(() => FakeSocket.all[0]);
    socket.drop();
    await assert.rejects(ready, { code: 'DISCONNECTED' });
    await assert.rejects(within(touched, 200), { code: 'CLOSED' });
    assert.equal(socket.sent.length, 0);
  });

  it('a request waiting for a reconnect is rejected with CLOSED at once when the client stops for good', async () => {
    const { client, socket } = await connected({ requestTimeoutMs: 2000 });
    socket.drop();
    const touched = client.touch();
    const second = await until(() => FakeSocket.all[1]);
    second.closeByServer(4401, 'token expired'); // a plain token that ended: no socket can be opened with it
    assert.equal(client.state, 'closed');
    await assert.rejects(within(touched, 200), { code: 'CLOSED' });
  });

  it('knows the canonical names and the conflict table', () => {
    assert.equal(resourceKey(FILTERS), 'item:5:filters');
    assert.equal(resourceKey({ type: 'variables', configuratorId: 12 }), 'configurator:12:variables');
    const configurator = { type: 'configurator', configuratorId: 12 };
    const variables = { type: 'variables', configuratorId: 12 };
    const otherPage = { ...FILTERS, page: 'dependencies' };
    assert.equal(conflicts(FILTERS, configurator), true);
    assert.equal(conflicts(FILTERS, variables), false);
    assert.equal(conflicts(FILTERS, otherPage), false);
    assert.equal(conflicts(FILTERS, { ...FILTERS }), true);
    assert.equal(conflicts(variables, configurator), true);
    assert.equal(conflicts(configurator, FILTERS), true);
    assert.equal(conflicts(configurator, { type: 'configurator', configuratorId: 13 }), false);
  });
});
