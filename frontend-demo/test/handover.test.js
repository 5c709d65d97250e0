// The demo's take-over and waiting part (handover.js) against a client on a scripted fake socket: what
// the read-only banner shows of the lines, and the holder's take-over dialog.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { installHandover } from '../handover.js';
import { createEditSession } from '../app/edit-session.js';
import { EditlockClient } from '../editlock-client.js';
import { lostReasonText } from '../model.js';
import {
  FakeSocket, FILTERS, MemoryStorage, connected as connectedTo, deferred, installFakeSockets, lockOf, removeFakeSockets, settled, until,
} from './support/scripted-server.js';

function connected(userName = 'Tom') {
  return connectedTo({ token: 'jwt', requestTimeoutMs: 1000 }, { resumeToken: 'r', userName });
}

/**
 * handover.js installed on `client`, with the app's state, toasts, redraws and grants handed on recorded;
 * `sendPendingDeletes` as writes.js would (none by default).
 */
function handoverOn(client, { sendPendingDeletes = () => [], pageExists = undefined } = {}) {
  const app = { state: { edit: null }, toasts: [], renders: 0, granted: [] };
  app.handover = installHandover({
    client, state: app.state, render: () => { app.renders += 1; }, toast: (text, kind) => app.toasts.push({ text, kind }),
    granted: (lock, forKey, asked) => app.granted.push({ lock, forKey, asked }), retry: () => {}, sendPendingDeletes, pageExists,
  });
  return app;
}

/** Configurator 12, the structure: the lock of whoever edits it. */
const STRUCTURE = { type: 'configurator', configuratorId: 12 };

/** A lock of `resource` held by `owner` ([userId, userName]). */
function heldBy(resource, owner, token) {
  return { ...lockOf(token, owner), resource };
}

/** A `lock-failed` LOCKED as the server words it: `lock`, another user's, refuses `resource`. */
function lockedBy(resource, lock) {
  return {
    resource, code: 'LOCKED', message: `Currently edited by ${lock.ownerUserName}`, lockedBy: lock.ownerUserName,
    lockedByUserId: lock.ownerUserId, blocking: lock,
  };
}

/** The take-over requests the client sent. */
const asks = (socket) => socket.sent.filter((f) => f.event === 'request-takeover');

/** After the test, passed or failed: a countdown or a client left running would keep the run from ending. */
function closeAfter(t, client, app) {
  t.after(() => {
    app.handover.close();
    client.close();
  });
}

const EDIT = { key: 'item:5:filters', resource: FILTERS, status: 'blocked', blockedBy: { name: 'Sara' } };

/** The client holds FILTERS (as Tom), open in `app`, and Omar asks Tom for it, with a consent window of `windowMs`. */
async function askedForFilters(app, client, socket, windowMs = 30_000) {
  app.state.edit = { key: 'item:5:filters', resource: FILTERS, status: 'editing' };
  const granted = client.lockItemPage(5, 'filters');
  await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17, ['7', 'Tom']), released: [] }]);
  await granted;
  socket.push('takeover-requested', {
    resource: FILTERS, byUserId: '8', byUserName: 'Omar', deadline: new Date(Date.now() + windowMs).toISOString(),
  });
}

/**
 * The intervals running, recorded around the real timers while a test runs (the countdowns' clock is one).
 * Real timers: Node 20's mock timers keep an interval going that clears itself from its own callback.
 */
function recordIntervals() {
  const running = new Set();
  const { setInterval: realSet, clearInterval: realClear } = globalThis;
  globalThis.setInterval = (run, ms) => {
    const id = realSet(run, ms);
    running.add(id);
    return id;
  };
  globalThis.clearInterval = (id) => {
    running.delete(id);
    realClear(id);
  };
  return { running, restore: () => Object.assign(globalThis, { setInterval: realSet, clearInterval: realClear }) };
}

/**
 * The demo around `client` as sign-in.js wires it: the edit session of the open page and handover.js,
 * with the client's events reaching both. `go(key, resource)` moves to another page as navigation does
 * (no resource: a page without a lock, such as the configurator's overview). Signed out after the test,
 * so that no countdown or client keeps the run from ending.
 */
function demoAround(t, client) {
  const app = {
    state: { edit: null, route: { view: 'item', configuratorId: 12 }, locks: [], auth: { userId: '7' }, drafts: new Map(), draftBases: new Map() },
    render: () => {},
    writes: { sendPendingDeletes: () => [] },
    toasts: [],
  };
  app.edit = createEditSession(app);
  const handover = installHandover({
    client, state: app.state, render: () => {}, toast: (text, kind) => app.toasts.push({ text, kind }),
    granted: (lock, forKey, asked) => app.edit.granted(lock, forKey, asked), retry: (edit) => app.edit.acquire(edit),
  });
  app.session = { client, handover };
  t.after(() => {
    handover.close();
    client.close();
  });
  const wire = { 'lock-updated': 'lockUpdated', 'lock-released': 'lockReleased', 'lock-lost': 'lockLost' };
  for (const [type, part] of Object.entries(wire)) {
    client.addEventListener(type, (event) => app.edit[part](event.detail));
  }
  app.go = (key, resource) => {
    if (app.state.edit && app.state.edit.key !== key) app.edit.leave(app.state.edit);
    if (resource) app.edit.open(key, resource);
    else app.state.edit = null;
  };
  return app;
}

/** Item 6's filters, another page of configurator 12. */
const OTHER_PAGE = { ...FILTERS, itemId: 6 };

/** The configurator lock Tom hands over to Sara (user 7), with its new token. */
const HANDED = heldBy(STRUCTURE, ['7', 'Sara'], 30);

/** The server refuses an item page of configurator 12 for Tom's structure lock. */
const refusedForTomsStructure = (frame) => ['lock-failed', lockedBy({ ...FILTERS, itemId: frame.data.itemId }, heldBy(STRUCTURE, ['8', 'Tom']))];

/** Sara opens item 5's filters, finds them blocked by Tom's structure, and asks Tom for it (the request stands). */
async function askedTomFromFilters(t, client, socket) {
  const app = demoAround(t, client);
  app.go('item:5:filters', { ...FILTERS });
  await socket.answer('lock-item-subresource', refusedForTomsStructure);
  await until(() => app.state.edit.status === 'blocked');
  const asking = app.session.handover.askHolder(app.state.edit);
  await socket.answer('request-takeover', (frame) => ['takeover-pending', {
    resource: frame.data.resource, deadline: new Date(Date.now() + 30_000).toISOString() }]);
  await asking;
  assert.equal(app.state.handover.asked.lock, 'configurator:12');
  return app;
}

/**
 * Sara asked Tom for his structure from item 5's filters, and her tab reloads (pagehide keeps what it asked): the
 * new page's client, not connected yet, and the demo around it; with the deadline of the request.
 */
async function askedThenReloaded(t) {
  const storage = new MemoryStorage();
  const { client: before, socket } = await connectedTo({ token: 'jwt', requestTimeoutMs: 1000, resumeStorage: storage },
    { resumeToken: 'r', userName: 'Sara' });
  const first = await askedTomFromFilters(t, before, socket);
  const deadline = first.state.handover.asked.deadline;
  before.rememberForReload();
  first.session.handover.rememberForReload();
  const after = new EditlockClient({
    token: 'jwt', url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, resumeStorage: storage,
    reloadResumeRetryDelaysMs: [10], requestTimeoutMs: 1000,
  });
  return { after, app: demoAround(t, after), deadline };
}

/** The reloaded page's client connects and resumes: the request moves to its socket, which it returns. */
async function resumedAfterReload(after) {
  const ready = after.connect();
  const second = await until(() => FakeSocket.all[1]);
  second.welcome('r2', 'Sara');
  await second.answer('resume', () => ['resumed', { locks: [] }]);
  await ready;
  return second;
}

/** The unlocks of the configurator the client sent. */
const structureUnlocks = (socket) => socket.sent.filter((f) => f.event === 'unlock-configurator');

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
    assert.match(app.toasts.at(-1).text, /no longer in line for this page: the window that asked for it was closed or lost its connection/);
    client.close();
  });

  it('a grant from the line says "your turn" in the tab that waits, not in the user\u2019s other tabs', async () => {
    const { client, socket } = await connected();
    const waitingTab = handoverOn(client);
    waitingTab.state.edit = { ...EDIT };
    const waiting = waitingTab.handover.waitForPage(waitingTab.state.edit);
    await socket.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 1 }]);
    await waiting;
    const otherTab = handoverOn(client); // the same user's grant reaches every tab of theirs
    otherTab.state.edit = { key: 'item:9:filters', resource: { ...FILTERS, itemId: 9 }, status: 'editing' };

    socket.push('lock-acquired', { lock: lockOf(31, ['7', 'Tom']), released: [], queued: true });

    assert.match(waitingTab.toasts.at(-1).text, /your turn/);
    assert.deepEqual(otherTab.toasts, [], 'a tab on another page has nothing to say');
    waitingTab.handover.close();
    otherTab.handover.close();
    client.close();
  });

  it('a grant from the line is handed on as asked only in the tab that waited, not in another tab showing the page', async () => {
    const first = await connected();
    const waitingTab = handoverOn(first.client);
    waitingTab.state.edit = { ...EDIT };
    const waiting = waitingTab.handover.waitForPage(waitingTab.state.edit);
    await first.socket.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 1 }]);
    await waiting;
    // Another tab of the user, on the same page, that did not wait: a client on a socket of its own.
    const other = new EditlockClient({ url: 'ws://test/locking', token: 'jwt', activityTarget: null, closeOnPageHide: false });
    const opened = other.connect();
    const second = { client: other, socket: await until(() => FakeSocket.all[1]) };
    second.socket.welcome('r2', 'Tom');
    await opened;
    const otherTab = handoverOn(second.client);
    otherTab.state.edit = { ...EDIT };

    const lock = lockOf(31, ['7', 'Tom']);
    first.socket.push('lock-acquired', { lock, released: [], queued: true });
    second.socket.push('lock-acquired', { lock, released: [], queued: true });

    assert.deepEqual(waitingTab.granted, [{ lock, forKey: 'item:5:filters', asked: true }], 'the waiting tab\u2019s socket keeps it');
    assert.deepEqual(otherTab.granted, [{ lock, forKey: 'item:5:filters', asked: false }], 'the other tab must ask for it itself');
    waitingTab.handover.close();
    otherTab.handover.close();
    first.client.close();
    second.client.close();
  });

  it('a place the server ended unasked no longer shows, and the user is told why', async () => {
    const { client, socket } = await connected();
    const app = handoverOn(client);
    const waiting = app.handover.waitForPage({ ...EDIT });
    await socket.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 1 }]);
    await waiting;

    socket.push('not-waiting', { resource: FILTERS, reason: 'idle' });
    assert.equal(app.state.handover.queue, null);
    assert.match(app.toasts.at(-1).text, /no longer in line for this page: you were inactive for too long\./);
    client.close();
  });

  it('a place that ended with the page (the store lost its data) does not say to line up again', async (t) => {
    const { client, socket } = await connected();
    const asked = [];
    const app = handoverOn(client, { pageExists: async (resource) => { asked.push(resource); return false; } });
    closeAfter(t, client, app);
    app.state.edit = { ...EDIT };
    const waiting = app.handover.waitForPage(app.state.edit);
    await socket.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 1 }]);
    await waiting;

    socket.push('not-waiting', { resource: { type: 'item-subresource', itemId: 5, page: 'filters' } }); // no reason, no configurator
    assert.equal(app.state.handover.queue, null);
    await until(() => app.toasts.length > 0);
    assert.deepEqual(app.toasts, [{ text: 'You are no longer in line for this page: it no longer exists.', kind: 'error' }]);
    assert.deepEqual(asked, [FILTERS], 'asked about the open page, with its configurator');
  });

  it('asks for the lock in the page\u2019s way (Tom edits the structure), not for the free page, and hands its grant on for the page', async (t) => {
    const { client, socket } = await connected('Sara');
    const app = handoverOn(client);
    closeAfter(t, client, app);
    const tomsStructure = heldBy(STRUCTURE, ['8', 'Tom']);
    const edit = { key: 'item:5:filters', resource: FILTERS, status: 'blocked', blockedBy: { name: 'Tom', userId: '8', resource: STRUCTURE } };
    const deadline = new Date(Date.now() + 30_000).toISOString();
    const asking = app.handover.askHolder(edit, 'Need the filters');
    const asked = await socket.answer('request-takeover', (frame) => frame.data.resource.type === 'configurator'
      ? ['takeover-pending', { resource: frame.data.resource, deadline }]
      : ['lock-failed', lockedBy(frame.data.resource, tomsStructure)]);
    await asking;
    assert.deepEqual(asked.data, { resource: STRUCTURE, message: 'Need the filters' }, 'asks Tom for his configurator lock');
    assert.deepEqual(app.state.handover.asked, { key: 'item:5:filters', lock: 'configurator:12', holder: 'Tom', deadline });

    const handed = heldBy(STRUCTURE, ['7', 'Sara'], 30);
    socket.push('takeover-granted', { lock: handed });
    assert.deepEqual(app.granted, [{ lock: handed, forKey: 'item:5:filters', asked: true }], 'granted for the page Sara opened');
    assert.equal(app.state.handover.asked, null);
  });

  it('a hand-over says so in the tab that asked, not in the user\u2019s tabs showing other pages', async (t) => {
    const { client, socket } = await connected('Sara');
    const askingTab = handoverOn(client);
    closeAfter(t, client, askingTab);
    askingTab.state.edit = { ...EDIT, blockedBy: { name: 'Tom', userId: '8', resource: FILTERS } };
    const asking = askingTab.handover.askHolder(askingTab.state.edit);
    await socket.answer('request-takeover', (frame) => ['takeover-pending', {
      resource: frame.data.resource, deadline: new Date(Date.now() + 30_000).toISOString() }]);
    await asking;
    const otherTab = handoverOn(client); // every tab of the user hears of the grant
    closeAfter(t, client, otherTab);
    otherTab.state.edit = { key: 'item:6:filters', resource: { ...FILTERS, itemId: 6 }, status: 'editing' };

    socket.push('takeover-granted', { lock: lockOf(31) });
    // Watchers hear the release of Tom's lock right after the grant: its reason tells how the page became Sara's.
    socket.push('lock-released', { resource: FILTERS, reason: 'taken-over', ownerUserId: '8', ownerUserName: 'Tom' });

    assert.deepEqual(askingTab.toasts.map((toast) => toast.text), ['Tom handed the page over to you.']);
    assert.deepEqual(otherTab.toasts, [], 'a tab on another page has nothing to say');
  });

  it('a page the holder did not hand over is \u201cyours now\u201d: freed (the holder closed the tab), or passed at the deadline', async (t) => {
    const { client, socket } = await connected('Sara');
    const app = handoverOn(client);
    closeAfter(t, client, app);
    const ask = async (deadline) => {
      app.state.edit = { ...EDIT, blockedBy: { name: 'Tom', userId: '8', resource: FILTERS } };
      const asking = app.handover.askHolder(app.state.edit);
      await socket.answer('request-takeover', (frame) => ['takeover-pending', { resource: frame.data.resource, deadline }]);
      await asking;
    };

    await ask(new Date(Date.now() + 30_000).toISOString());
    socket.push('takeover-granted', { lock: lockOf(31) });
    socket.push('lock-released', { resource: FILTERS, reason: 'disconnect', ownerUserId: '8', ownerUserName: 'Tom' });
    assert.deepEqual(app.toasts.map((toast) => toast.text), ['The page is yours now.'], 'not \u201chanded over\u201d');

    // The release may come first, too (a release, then the hand-over due in the same step).
    await ask(new Date(Date.now() + 30_000).toISOString());
    socket.push('lock-released', { resource: FILTERS, reason: 'unlock', ownerUserId: '8', ownerUserName: 'Tom' });
    socket.push('takeover-granted', { lock: lockOf(32) });
    assert.equal(app.toasts.at(-1).text, 'The page is yours now.');

    // How it came is told by the server's clock, which set the deadline and the grant's acquiredAt: the
    // browser's clock may be off by more than the moment between them.
    const deadline = new Date(Date.now() + 30_000);
    await ask(deadline.toISOString());
    socket.push('takeover-granted', { lock: { ...lockOf(33), acquiredAt: new Date(deadline.getTime() + 400).toISOString() } });
    socket.push('lock-released', { resource: FILTERS, reason: 'taken-over', ownerUserId: '8', ownerUserName: 'Tom' });
    assert.equal(app.toasts.at(-1).text, 'Tom did not answer in time, so the page passed to you.', 'the browser\u2019s clock is behind');

    const passed = new Date(Date.now() - 5_000);
    await ask(passed.toISOString());
    socket.push('takeover-granted', { lock: { ...lockOf(34), acquiredAt: new Date(passed.getTime() - 1_000).toISOString() } });
    socket.push('lock-released', { resource: FILTERS, reason: 'taken-over', ownerUserId: '8', ownerUserName: 'Tom' });
    assert.equal(app.toasts.at(-1).text, 'Tom handed the page over to you.', 'the browser\u2019s clock is ahead');
    assert.equal(app.toasts.length, 4);
  });

  it('a refusal naming another lock of the same holder asks for that one; naming someone else shows who is in the way', async (t) => {
    const { client, socket } = await connected('Sara');
    const app = handoverOn(client);
    closeAfter(t, client, app);
    const tomsStructure = heldBy(STRUCTURE, ['8', 'Tom']);
    // The banner knew only that Tom is in the way, not which of his locks: the page itself is asked for first.
    const edit = { key: 'item:5:filters', resource: FILTERS, status: 'blocked', blockedBy: { name: 'Tom', userId: '8' } };
    const asking = app.handover.askHolder(edit);
    await socket.answer('request-takeover', (frame) => ['lock-failed', lockedBy(frame.data.resource, tomsStructure)]);
    const second = await socket.answer('request-takeover', (frame) => ['takeover-pending', {
      resource: frame.data.resource, deadline: new Date(Date.now() + 30_000).toISOString() }]);
    await asking;
    assert.deepEqual(second.data.resource, STRUCTURE);
    assert.equal(app.state.handover.asked.lock, 'configurator:12');

    // Omar's page is in the way of Sara's structure: she is shown whom to ask; Omar is not asked unasked.
    const structure = { key: 'configurator:12', resource: STRUCTURE, status: 'blocked', blockedBy: { name: 'Tom', userId: '8', resource: STRUCTURE } };
    const omarsPage = heldBy({ ...FILTERS, itemId: 6 }, ['9', 'Omar']);
    const sent = asks(socket).length;
    await Promise.all([
      app.handover.askHolder(structure),
      socket.answer('request-takeover', (frame) => ['lock-failed', lockedBy(frame.data.resource, omarsPage)]),
    ]);
    assert.equal(asks(socket).length, sent + 1, 'one request: for Tom\u2019s lock');
    assert.deepEqual(structure.blockedBy, { name: 'Omar', userId: '9', resource: omarsPage.resource });
    assert.match(app.toasts.at(-1).text, /Currently edited by Omar\. Ask Omar/);
  });

  it('a page opened while the client already waits in its line shows the place', async () => {
    const { client } = await connected();
    const app = handoverOn(client);
    client.waiting.set('item:5:filters', 3); // a reloaded tab rejoined the line before the page opened
    app.handover.opened({ ...EDIT });
    assert.deepEqual(app.state.handover.queue, { key: 'item:5:filters', position: 3 });
    client.close();
  });

  describe('the holder\u2019s take-over dialog', () => {
    let intervals;
    beforeEach(() => { intervals = recordIntervals(); });
    afterEach(() => intervals.restore());

    it('goes, and its clock stops, when the holder unlocks the page', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      await askedForFilters(app, client, socket);
      assert.equal(app.state.handover.request.byUserName, 'Omar');
      assert.equal(intervals.running.size, 1, 'the countdown runs');

      const unlocked = client.unlockItemPage(5, 'filters');
      await socket.answer('unlock-item-subresource', () => ['lock-released', { resource: FILTERS, reason: 'unlock', ownerUserId: '7', ownerUserName: 'Tom' }]);
      await unlocked;
      await until(() => app.state.handover.request === null); // by the next second of the countdown
      assert.equal(intervals.running.size, 0);
      client.close();
    });

    it('goes at once, and its clock stops, when the page is left', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      await askedForFilters(app, client, socket);
      app.handover.left({ key: 'item:5:filters', resource: FILTERS, status: 'editing' });
      assert.equal(app.state.handover.request, null);
      assert.equal(intervals.running.size, 0);
      client.close();
    });

    it('goes, and its clock stops, on sign-out', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      await askedForFilters(app, client, socket);
      app.handover.close();
      assert.equal(app.state.handover.request, null);
      assert.equal(intervals.running.size, 0);
      client.close();
    });

    it('a page that passed when nobody answered names the asker, and does not say the user handed it over', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      await askedForFilters(app, client, socket, 1200);
      await until(() => app.state.handover.request === null); // the window ended without an answer
      const taken = app.handover.takenOver('item:5:filters');
      assert.deepEqual(taken, { byUserName: 'Omar', handedOver: false });
      const words = lostReasonText('taken-over', taken);
      assert.doesNotMatch(words, /You handed/);
      assert.equal(words, 'Omar asked for this page; it passed to them.');
      client.close();
    });

    it('a page handed over with the dialog says so, naming who has it', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      await askedForFilters(app, client, socket);
      const answered = app.handover.answer(true);
      const sent = await socket.answer('answer-takeover', () => ['takeover-answered', { resource: FILTERS, accept: true }]);
      assert.equal(sent.data.byUserId, '8', "the answer names the dialog's asker: it answers no one else");
      await answered;
      assert.equal(lostReasonText('taken-over', app.handover.takenOver('item:5:filters')), 'You handed this page over to Omar.');
      client.close();
    });

    it('Hand over sends the deletes waiting for their Undo first, and answers once they are answered', async () => {
      const { client, socket } = await connected();
      const deleted = deferred();
      let sent = 0;
      const app = handoverOn(client, { sendPendingDeletes: () => { sent += 1; return [deleted.promise]; } });
      await askedForFilters(app, client, socket);

      const answered = app.handover.answer(true);
      await settled();
      assert.equal(sent, 1, 'the deletes went out');
      assert.equal(socket.sent.filter((f) => f.event === 'answer-takeover').length, 0, 'not handed over while a delete needs the lock');
      deleted.resolve(true);
      await socket.answer('answer-takeover', () => ['takeover-answered', { resource: FILTERS, accept: true }]);
      await answered;
      client.close();
    });

    it('Keep sends no delete: the page and its Undo stay the user\u2019s', async () => {
      const { client, socket } = await connected();
      let sent = 0;
      const app = handoverOn(client, { sendPendingDeletes: () => { sent += 1; return []; } });
      await askedForFilters(app, client, socket);

      const answered = app.handover.answer(false);
      await socket.answer('answer-takeover', () => ['takeover-answered', { resource: FILTERS, accept: false }]);
      await answered;
      assert.equal(sent, 0);
      client.close();
    });

    it('an answer given in one tab puts the question away in the user’s other tabs showing the page', async () => {
      const { client, socket } = await connected();
      const answering = handoverOn(client);
      const other = handoverOn(client); // the same user's other tab: it hears the same request
      other.state.edit = { key: 'item:5:filters', resource: FILTERS, status: 'editing' };
      await askedForFilters(answering, client, socket);
      assert.ok(other.state.handover.request, 'both tabs ask');

      const answered = answering.handover.answer(false);
      await socket.answer('answer-takeover', () => ['takeover-answered', { resource: FILTERS, accept: false }]);
      await answered;
      await until(() => other.state.handover.request === null);
      answering.handover.close();
      other.handover.close();
      client.close();
    });

    it('a request answered here and told again by a resume (the answer still on its way) does not come back', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      await askedForFilters(app, client, socket);
      const asked = { ...app.state.handover.request };

      const answered = app.handover.answer(false);
      socket.push('takeover-requested', asked); // what a resume tells again of a request still standing
      assert.equal(app.state.handover.request, null, 'the question answered stays away');
      await socket.answer('answer-takeover', () => ['takeover-answered', { resource: FILTERS, accept: false }]);
      await answered;
      app.handover.close();
      client.close();
    });

    it('a tab that did not hand over keeps to neutral words when another tab of the user did', async () => {
      const { client, socket } = await connected();
      const answering = handoverOn(client);
      const other = handoverOn(client);
      other.state.edit = { key: 'item:5:filters', resource: FILTERS, status: 'editing' };
      await askedForFilters(answering, client, socket);

      const answered = answering.handover.answer(true);
      await socket.answer('answer-takeover', () => ['takeover-answered', { resource: FILTERS, accept: true }]);
      await answered;
      await until(() => other.state.handover.request === null);
      assert.equal(lostReasonText('taken-over', other.handover.takenOver('item:5:filters')), 'Omar asked for this page; it passed to them.');
      assert.equal(lostReasonText('taken-over', answering.handover.takenOver('item:5:filters')), 'You handed this page over to Omar.');
      answering.handover.close();
      other.handover.close();
      client.close();
    });

    it('goes when its consent window is over (another tab may have answered: this one hears nothing of it)', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      await askedForFilters(app, client, socket, 1200);
      const deadline = Date.parse(app.state.handover.request.deadline);
      await until(() => app.state.handover.request === null);
      assert.ok(Date.now() >= deadline, 'not before the deadline');
      assert.equal(intervals.running.size, 0, 'not left standing at 0 s');
      client.close();
    });

    it('is shown only in a tab whose open page it is: a tab that holds the page but shows another shows none', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      await askedForFilters(app, client, socket);
      assert.ok(app.state.handover.request, 'shown in the tab showing the page');
      app.state.handover.request = null;
      app.state.edit = { key: 'item:6:filters', resource: { ...FILTERS, itemId: 6 }, status: 'editing' };
      socket.push('takeover-requested', { resource: FILTERS, byUserId: '8', byUserName: 'Omar', deadline: new Date(Date.now() + 30_000).toISOString() });
      assert.equal(app.state.handover.request, null, 'no dialog in a tab showing another page');
      assert.deepEqual(app.handover.takenOver('item:5:filters'), { byUserName: 'Omar', handedOver: false });
      app.handover.close();
      client.close();
    });

    it('is not shown by a client that does not hold the page (another tab of the holder does)', async () => {
      const { client, socket } = await connected();
      const app = handoverOn(client);
      socket.push('takeover-requested', { resource: FILTERS, byUserId: '8', byUserName: 'Omar', deadline: new Date(Date.now() + 30_000).toISOString() });
      assert.equal(app.state.handover.request, null);
      assert.equal(intervals.running.size, 0);
      client.close();
    });
  });

  describe('a take-over request standing for a page the user left (it cannot be withdrawn)', () => {
    it('its grant is given back at once, and no page turns editable with it', async (t) => {
      const { client, socket } = await connected('Sara');
      const app = await askedTomFromFilters(t, client, socket);
      app.go('item:6:filters', { ...OTHER_PAGE }); // Sara moves on before Tom answers
      await socket.answer('lock-item-subresource', refusedForTomsStructure);
      await until(() => app.state.edit.status === 'blocked');

      socket.push('takeover-granted', { lock: HANDED }); // Tom hands over the structure
      const unlock = await until(() => structureUnlocks(socket)[0]);
      assert.deepEqual(unlock.data, { configuratorId: 12 });
      await socket.answer('unlock-configurator', () => ['lock-released', { resource: STRUCTURE, reason: 'unlock', ownerUserId: '7', ownerUserName: 'Sara' }]);
      await settled();
      assert.equal(client.heldLock(STRUCTURE), undefined);
      assert.equal(app.state.edit.key, 'item:6:filters');
      assert.equal(app.state.edit.status, 'blocked', 'not editing: the page open now was not asked for');
      assert.equal(socket.sent.filter((f) => f.event === 'lock-item-subresource').length, 2, 'the page left is not locked');
      assert.deepEqual(app.toasts, [], 'nothing was handed over to the user');
    });

    it('back on the page before the grant comes, the grant serves that page, as if it had never been left', async (t) => {
      const { client, socket } = await connected('Sara');
      const app = await askedTomFromFilters(t, client, socket);
      app.go('configurator:12:overview', null);
      app.go('item:5:filters', { ...FILTERS }); // and back
      await socket.answer('lock-item-subresource', refusedForTomsStructure);
      await until(() => app.state.edit.status === 'blocked');
      const banner = app.state.handover.asked;

      socket.push('takeover-granted', { lock: HANDED });
      await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(31), released: [] }]);
      await until(() => app.state.edit.status === 'editing');
      assert.equal(app.state.edit.token, 31);
      await until(() => structureUnlocks(socket).length === 1); // the structure goes back once the page is Sara's
      assert.equal(banner?.lock, 'configurator:12', 'while it stood, the banner showed the request again');
    });

    it('left while the request was on its way: its grant is given back too', async (t) => {
      const { client, socket } = await connected('Sara');
      const app = demoAround(t, client);
      app.go('item:5:filters', { ...FILTERS });
      await socket.answer('lock-item-subresource', refusedForTomsStructure);
      await until(() => app.state.edit.status === 'blocked');
      const asking = app.session.handover.askHolder(app.state.edit);
      const frame = await until(() => asks(socket)[0]);
      app.go('configurator:12:overview', null); // before the server confirmed the request
      socket.push('takeover-pending', { resource: frame.data.resource, deadline: new Date(Date.now() + 30_000).toISOString() }, frame.ref);
      await asking;

      socket.push('takeover-granted', { lock: HANDED });
      const unlock = await until(() => structureUnlocks(socket)[0]);
      assert.deepEqual(unlock.data, { configuratorId: 12 });
    });

    it('its refusal is forgotten: nothing to tell about a page the user left', async (t) => {
      const { client, socket } = await connected('Sara');
      const app = await askedTomFromFilters(t, client, socket);
      app.go('configurator:12:overview', null);
      const sent = socket.sent.length;

      socket.push('takeover-refused', { resource: STRUCTURE, byUserName: 'Tom' });
      await settled();
      assert.deepEqual(app.toasts, []);
      assert.equal(socket.sent.length, sent, 'nothing sent');
      assert.equal(client.takeovers.size, 0);
    });

    it('a grant that reached only the socket that dropped, brought back by the resume, is given back', async (t) => {
      const { client, socket } = await connectedTo({ token: 'jwt', requestTimeoutMs: 1000, backoffBaseMs: 5, backoffMaxMs: 20 },
        { resumeToken: 'r', userName: 'Sara' });
      const app = await askedTomFromFilters(t, client, socket);
      app.go('configurator:12:overview', null);

      socket.drop(); // Tom hands over while Sara's socket is gone
      const second = await until(() => FakeSocket.all[1]);
      second.welcome('resume-2', 'Sara');
      await second.answer('resume', () => ['resumed', { locks: [HANDED] }]);
      const unlock = await until(() => second.sent.find((f) => f.event === 'unlock-configurator'));
      assert.deepEqual(unlock.data, { configuratorId: 12 });
      assert.deepEqual(app.toasts, []);
    });

    it('a tab reloaded on the page that asked shows the request again, and the grant serves that page', async (t) => {
      const { after, app, deadline } = await askedThenReloaded(t);
      const second = await resumedAfterReload(after); // the request moved to this page's socket
      app.go('item:5:filters', { ...FILTERS }); // the reloaded page opens the same page
      await second.answer('lock-item-subresource', refusedForTomsStructure);
      await until(() => app.state.edit.status === 'blocked');
      assert.deepEqual(app.state.handover.asked, { key: 'item:5:filters', lock: 'configurator:12', holder: 'Tom', deadline },
        'the banner shows the request, not "Ask Tom" again');

      second.push('takeover-granted', { lock: HANDED });
      second.push('lock-released', { resource: STRUCTURE, reason: 'taken-over', ownerUserId: '8', ownerUserName: 'Tom' });
      await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(31), released: [] }]);
      await until(() => app.state.edit.status === 'editing');
      assert.equal(app.state.edit.token, 31);
      assert.equal(app.toasts.at(-1).text, 'Tom handed the page over to you.');
    });

    it('a grant that comes while the reloaded tab is still opening the page that asked serves that page once it opens', async (t) => {
      const { after, app } = await askedThenReloaded(t);
      app.state.route = { view: 'item', configuratorId: 12, itemId: 5, page: 'filters' }; // what the reloaded tab opens
      const second = await resumedAfterReload(after); // the request moved to this page's socket
      second.push('takeover-granted', { lock: HANDED }); // Tom hands over before the page is open
      second.push('lock-released', { resource: STRUCTURE, reason: 'taken-over', ownerUserId: '8', ownerUserName: 'Tom' });
      await settled();
      assert.equal(second.sent.filter((f) => f.event === 'unlock-configurator').length, 0, 'not given back');

      app.go('item:5:filters', { ...FILTERS });
      await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(31), released: [] }]);
      await until(() => app.state.edit.status === 'editing');
      assert.equal(app.state.edit.token, 31);
      await until(() => structureUnlocks(second).length === 1); // the structure goes back once the page is Sara's
      assert.equal(app.toasts.at(-1).text, 'Tom handed the page over to you.');
    });

    it('a tab reloaded on the page that asked tells a refusal', async (t) => {
      const { after, app } = await askedThenReloaded(t);
      app.go('item:5:filters', { ...FILTERS }); // the page opens before the resume is answered
      const second = await resumedAfterReload(after); // the request moved to this page's socket
      await second.answer('lock-item-subresource', refusedForTomsStructure);
      await until(() => app.state.edit.status === 'blocked');
      assert.equal(app.state.handover.asked?.lock, 'configurator:12');

      second.push('takeover-refused', { resource: STRUCTURE, byUserName: 'Tom' });
      await until(() => app.toasts.length > 0);
      assert.match(app.toasts.at(-1).text, /Tom keeps editing the page for now/);
      assert.equal(app.state.handover.asked, null);
      assert.equal(second.sent.filter((f) => f.event === 'unlock-configurator').length, 0);
    });

    it('a reloaded tab gives back the grant of a request the page before made', async (t) => {
      const { after, app } = await askedThenReloaded(t);
      const second = await resumedAfterReload(after); // the request moved to this page's socket
      app.go('configurator:12:overview', null);

      second.push('takeover-granted', { lock: HANDED });
      const unlock = await until(() => second.sent.find((f) => f.event === 'unlock-configurator'));
      assert.deepEqual(unlock.data, { configuratorId: 12 });
      assert.deepEqual(app.toasts, []);
    });
  });
});
