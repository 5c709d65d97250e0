// The demo's edit session of the open page (app/edit-session.js) against a client on a scripted fake
// socket: what the page shows when the client reports its lock, and when it sends an unlock.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createEditSession } from '../app/edit-session.js';
import { normalizeConfigurator } from '../model.js';
import {
  FakeSocket, FILTERS, connected as connectedTo, deferred, installFakeSockets, lockOf, removeFakeSockets, settled, until,
} from './support/scripted-server.js';

const OTHER_PAGE = { type: 'item-subresource', configuratorId: 12, itemId: 6, page: 'filters' };

/** Configurator 12's structure, and Tom's lock of it. */
const STRUCTURE = { type: 'configurator', configuratorId: 12 };
const TOMS_STRUCTURE = { ...lockOf(20, ['8', 'Tom']), resource: STRUCTURE };
/** The configurator lock handed over to the client's user (7, Sara), with its new token. */
const HANDED = { ...lockOf(30), resource: STRUCTURE };

/** The refusal of item 5's filters while Tom edits the structure. */
const REFUSED_BY_TOMS_STRUCTURE = {
  resource: FILTERS, code: 'LOCKED', message: 'Currently edited by Tom', lockedBy: 'Tom', lockedByUserId: '8', blocking: TOMS_STRUCTURE,
};

/** Unlocks of item 5's filters the client sent. */
const filtersUnlocks = (socket) => socket.sent.filter((f) => f.event === 'unlock-item-subresource' && f.data.itemId === 5);

function connected() {
  return connectedTo({ token: 'jwt', requestTimeoutMs: 1000, backoffBaseMs: 5, backoffMaxMs: 20, resumeRetryDelaysMs: [10] });
}

/** Configurator 12 as GET /api/configurators/12 answers, item 5's one filter (31) reading `expression`. */
const configuratorWith = (expression) => normalizeConfigurator({
  id: 12, name: 'City bike', items: [{ id: 5, name: 'Frame', filters: [{ id: 31, expression }] }, { id: 6, name: 'Fork' }],
});

/**
 * The parts of the demo an edit session reaches, around `client`; the client's events reach the session
 * as sign-in.js wires them. `pendingDeletes` is what `writes.sendPendingDeletes()` returns; reading the
 * configurator again gives `saved()` (and counts the reads) unless `readFails(read)` (the read's number, from
 * 1); toasts are kept in `app.toasts`. A failed read is tried again after 5, 10 and 20 ms.
 */
function demoAround(client, { pendingDeletes = [], saved = () => configuratorWith('frame.size >= 54'), readFails = () => false } = {}) {
  const app = {
    state: { edit: null, route: { view: 'item', configuratorId: 12 }, locks: [], auth: { userId: '7' },
      view: saved(), drafts: new Map(), draftBases: new Map() },
    render: () => {},
    toasts: [],
    toast: (text) => { app.toasts.push(text); return () => {}; },
    reads: 0,
    configurator: {
      reload: async () => {
        app.reads += 1;
        if (readFails(app.reads)) {
          return false;
        }
        app.state.view = saved();
        return true;
      },
    },
    session: { client, handover: { opened() {}, left() {}, takenOver: () => null } },
    writes: { sendPendingDeletes: () => pendingDeletes },
  };
  app.edit = createEditSession(app, { rereadDelaysMs: [5, 10, 20] });
  client.addEventListener('lock-lost', (event) => app.edit.lockLost(event.detail));
  client.addEventListener('lock-acquired', (event) => event.detail.retaken && app.edit.retaken(event.detail.lock));
  return app;
}

/** What the user typed into filter 31 over `base` (as actions.draft keeps it). */
function typed(app, value, base = 'frame.size >= 54') {
  app.state.drafts.set('e:filters:31:expression', value);
  app.state.draftBases.set('e:filters:31:expression', base);
}

/** Opens item 5's filters, and the server grants them (token 17). */
async function editingFilters(app, socket) {
  app.edit.open('item:5:filters', { ...FILTERS });
  await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
  await until(() => app.state.edit.status === 'editing');
}

/** Tom edits the filters, types a change, and the lock is taken from him (an admin broke it). */
async function lostWithADraft(app, socket) {
  await editingFilters(app, socket);
  typed(app, 'tom-draft');
  socket.push('lock-lost', { resource: FILTERS, reason: 'admin' });
  await until(() => app.state.edit.status === 'lost');
}

/** The drop of the client's first socket, a resume refused for good, and item 5's filters asked for again. */
async function dropAndRetake(socket, token) {
  socket.drop();
  const second = await until(() => FakeSocket.all[1]);
  second.welcome('resume-2');
  await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
  await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
  await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(token), released: [] }]);
  return second;
}

describe('the demo\u2019s edit session', () => {
  beforeEach(installFakeSockets);
  afterEach(removeFakeSockets);

  it('a page whose grant ended during a drop is editable again under the grant asked for anew', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client);
    await editingFilters(app, socket);

    await dropAndRetake(socket, 23);
    await until(() => client.state === 'open');
    await until(() => app.state.edit.status === 'editing');
    assert.equal(app.state.edit.token, 23, 'the new grant fences the saves: the server holds the page for this user');
    client.close();
  });

  it('a grant asked for anew after a drop drops the draft whose saved value changed meanwhile, and keeps the others', async () => {
    const { client, socket } = await connected();
    let expression = 'frame.size >= 54';
    const app = demoAround(client, { saved: () => configuratorWith(expression) });
    await editingFilters(app, socket);
    typed(app, 'tom-draft');
    app.state.drafts.set('new:filters:5:expression', 'a new filter'); // based on nothing saved

    expression = 'sara-saved'; // someone else held the page while this socket was gone, and saved
    await dropAndRetake(socket, 23);
    await until(() => app.state.edit.status === 'editing');
    assert.equal(app.reads, 1, 'the page was read again before it turned editable');
    assert.equal(app.state.drafts.has('e:filters:31:expression'), false, 'never saved over what was saved meanwhile');
    assert.equal(app.state.drafts.get('new:filters:5:expression'), 'a new filter');
    assert.match(app.toasts.join('\n'), /unsaved change was dropped/);
    client.close();
  });

  it('"Edit again" after the lock was taken away reads the page again and drops a draft someone saved over', async () => {
    const { client, socket } = await connected();
    let expression = 'frame.size >= 54';
    const app = demoAround(client, { saved: () => configuratorWith(expression) });
    await lostWithADraft(app, socket);
    expression = 'sara-saved';
    app.edit.retry();
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(18), released: [] }]);
    await until(() => app.state.edit.status === 'editing');
    assert.equal(app.state.edit.token, 18);
    assert.equal(app.state.drafts.has('e:filters:31:expression'), false, 'the input shows what Sara saved');
    client.close();
  });

  it('"Edit again" whose read fails stays opening and reads again, then checks the drafts against what it read', async () => {
    const { client, socket } = await connected();
    let expression = 'frame.size >= 54';
    const app = demoAround(client, { saved: () => configuratorWith(expression), readFails: (read) => read <= 2 });
    await lostWithADraft(app, socket);
    expression = 'sara-saved';
    app.edit.retry();
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(18), released: [] }]);
    await until(() => app.reads === 1);
    assert.equal(app.state.edit.status, 'opening', 'not editable while the page could not be read');
    await until(() => app.state.edit.status === 'editing');
    assert.equal(app.reads, 3, 'read again until it could be');
    assert.equal(app.state.drafts.has('e:filters:31:expression'), false, 'never saved over what Sara saved');
    client.close();
  });

  it('"Edit again" whose reads keep failing drops the drafts it cannot check, with a word, and keeps new entries', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client, { readFails: (read) => read >= 1 });
    await editingFilters(app, socket);
    typed(app, 'tom-draft'); // over a value someone may have saved over meanwhile: it cannot be told
    app.state.drafts.set('new:filters:5:expression', 'a new filter'); // based on nothing saved

    socket.push('lock-lost', { resource: FILTERS, reason: 'admin' });
    await until(() => app.state.edit.status === 'lost');
    app.edit.retry();
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(18), released: [] }]);
    await until(() => app.state.edit.status === 'editing');
    assert.equal(app.reads, 4, 'the read and three more, backing off');
    assert.equal(app.state.edit.token, 18);
    assert.equal(app.state.drafts.has('e:filters:31:expression'), false, 'not saved unchecked');
    assert.equal(app.state.draftBases.size, 0);
    assert.equal(app.state.drafts.get('new:filters:5:expression'), 'a new filter');
    assert.match(app.toasts.join('\n'), /could not be read again/);
    client.close();
  });

  it('"Edit again" keeps a draft whose saved value nobody changed', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client);
    await lostWithADraft(app, socket);
    app.edit.retry();
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(18), released: [] }]);
    await until(() => app.state.edit.status === 'editing');
    assert.equal(app.reads, 1);
    assert.equal(app.state.drafts.get('e:filters:31:expression'), 'tom-draft');
    assert.deepEqual(app.toasts, []);
    client.close();
  });

  it('a lock asked for anew after a drop, of a page no longer open, is given back', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client);
    const kept = client.lock({ ...FILTERS }); // held, but not by the page open now
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await kept;
    app.edit.open('configurator:12:variables', { type: 'variables', configuratorId: 12 });
    await socket.answer('lock-variables', () => ['lock-acquired', { lock: { ...lockOf(18), resource: { type: 'variables', configuratorId: 12 } }, released: [] }]);
    await until(() => app.state.edit.status === 'editing');

    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
    await second.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(23), released: [] }]);
    await second.answer('lock-variables', () => ['lock-acquired', { lock: { ...lockOf(18), resource: { type: 'variables', configuratorId: 12 } }, released: [] }]);
    const unlock = await until(() => filtersUnlocks(second)[0]);
    assert.deepEqual(unlock.data, { itemId: 5, page: 'filters' });
    assert.equal(app.state.edit.status, 'editing', 'the open page keeps its lock');
    client.close();
  });

  it('a page left with a delete pending and opened again keeps its lock when the delete is answered', async () => {
    const { client, socket } = await connected();
    const deleted = deferred();
    const app = demoAround(client, { pendingDeletes: [deleted.promise] });
    await editingFilters(app, socket);

    app.edit.leave(app.state.edit); // the unlock waits for the delete
    app.edit.open('item:5:filters', { ...FILTERS }); // the user comes back: a new session of the same page
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]); // a re-entry
    await until(() => app.state.edit.status === 'editing');
    deleted.resolve(true);
    await settled();
    assert.deepEqual(filtersUnlocks(socket), [], 'the page open again keeps its lock');
    assert.equal(client.heldLock(FILTERS).token, 17);
    client.close();
  });

  it('a lock granted after the user left the page is not given back if the user came back to it meanwhile', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client);
    app.edit.open('item:5:filters', { ...FILTERS });
    app.edit.open('item:6:filters', { ...OTHER_PAGE }); // on to another page before the grant came
    app.edit.open('item:5:filters', { ...FILTERS }); // and back
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: { ...lockOf(18), resource: OTHER_PAGE }, released: [] }]);
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await until(() => app.state.edit.status === 'editing');
    await settled();
    assert.deepEqual(filtersUnlocks(socket), [], 'the page open again keeps its lock');
    assert.equal(socket.sent.filter((f) => f.event === 'unlock-item-subresource' && f.data.itemId === 6).length, 1, 'the page left is given back');
    client.close();
  });

  it('a grant another tab asked for (its turn in line) makes the page editable only once this tab has asked for the lock too', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client);
    app.edit.open('item:5:filters', { ...FILTERS });
    const toms = lockOf(20, ['8', 'Tom']);
    await socket.answer('lock-item-subresource', () => ['lock-failed', {
      resource: FILTERS, code: 'LOCKED', message: 'Currently edited by Tom', lockedBy: 'Tom', lockedByUserId: '8', blocking: toms,
    }]);
    await until(() => app.state.edit.status === 'blocked');

    // Another tab of Sara waited in line: every socket of hers is told, only that tab's keeps the grant.
    socket.push('lock-acquired', { lock: lockOf(40), released: [], queued: true });
    app.edit.granted(lockOf(40), 'item:5:filters', false);
    const again = await until(() => socket.sent.filter((f) => f.event === 'lock-item-subresource')[1]);
    assert.deepEqual(again.data, { itemId: 5, page: 'filters' }, 'this socket asks for the lock itself');
    assert.notEqual(app.state.edit.status, 'editing', 'not editable on a grant this socket does not keep');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(40), released: [] }]); // a re-entry
    await until(() => app.state.edit.status === 'editing');
    assert.equal(app.state.edit.token, 40, 'the same grant, kept by this socket too');
    client.close();
  });

  it('a lock lost while the connection was down, and taken since, says that it was lost and why, beside who has it', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client);
    app.edit.open('item:5:filters', { ...FILTERS });
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await until(() => app.state.edit.status === 'editing');

    // Asked again after the drop, and refused: Tom has the page now.
    app.edit.lockLost({ resource: FILTERS, reason: 'disconnect', refusal: {
      resource: FILTERS, code: 'LOCKED', message: 'Currently edited by Tom', lockedBy: 'Tom', lockedByUserId: '8', blocking: lockOf(20, ['8', 'Tom']),
    } });
    assert.equal(app.state.edit.status, 'blocked');
    assert.equal(app.state.edit.blockedBy.name, 'Tom');
    assert.equal(app.state.edit.reason, 'Your connection was lost for too long, so the page was released.');

    // Asking again after the reconnect is refused the same way: the word on the loss stays.
    app.edit.blocked(app.state.edit, { name: 'Tom', userId: '8' });
    assert.equal(app.state.edit.reason, 'Your connection was lost for too long, so the page was released.');
    client.close();
  });

  it('a grant this tab asked for makes the page editable at once', async () => {
    const { client, socket } = await connected();
    const app = demoAround(client);
    app.edit.open('item:5:filters', { ...FILTERS });
    await socket.answer('lock-item-subresource', () => ['lock-failed', {
      resource: FILTERS, code: 'LOCKED', message: 'Currently edited by Tom', lockedBy: 'Tom', lockedByUserId: '8', blocking: lockOf(20, ['8', 'Tom']),
    }]);
    await until(() => app.state.edit.status === 'blocked');
    socket.push('takeover-granted', { lock: lockOf(41) });
    app.edit.granted(lockOf(41), 'item:5:filters', true);
    await until(() => app.state.edit.status === 'editing');
    assert.equal(app.state.edit.token, 41);
    assert.equal(socket.sent.filter((f) => f.event === 'lock-item-subresource').length, 1, 'nothing more to ask for');
    client.close();
  });

  describe('a lock in the page\u2019s way handed over for it (Tom edited the structure)', () => {
    /** Item 5's filters open and refused for Tom's structure; then his configurator lock is the client's. */
    async function handedOver(t) {
      const { client, socket } = await connected();
      t.after(() => client.close());
      const app = demoAround(client);
      app.edit.open('item:5:filters', { ...FILTERS });
      await socket.answer('lock-item-subresource', () => ['lock-failed', REFUSED_BY_TOMS_STRUCTURE]);
      await until(() => app.state.edit.status === 'blocked');
      return { client, socket, app };
    }

    /** The server hands the configurator lock over; handover.js passes it on for the open page. */
    function takeoverGranted(socket, app) {
      socket.push('takeover-granted', { lock: HANDED });
      app.edit.granted(HANDED, 'item:5:filters');
    }

    it('the page is locked, and the configurator lock given back once it is', async (t) => {
      const { socket, app } = await handedOver(t);
      assert.deepEqual(app.state.edit.blockedBy, { name: 'Tom', userId: '8', resource: STRUCTURE }, 'the lock to ask Tom for');

      takeoverGranted(socket, app);
      await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(31), released: [] }]);
      await until(() => app.state.edit.status === 'editing');
      assert.equal(app.state.edit.token, 31, 'the page\u2019s own token fences its saves');
      const unlock = await until(() => socket.sent.find((f) => f.event === 'unlock-configurator'));
      assert.deepEqual(unlock.data, { configuratorId: 12 });
    });

    it('the page locked by itself before the news came (its release came first): the configurator lock goes back at once', async (t) => {
      const { socket, app } = await handedOver(t);
      app.edit.lockReleased({ resource: STRUCTURE });
      await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(31), released: [] }]);
      await until(() => app.state.edit.status === 'editing');

      takeoverGranted(socket, app);
      const unlock = await until(() => socket.sent.find((f) => f.event === 'unlock-configurator'));
      assert.deepEqual(unlock.data, { configuratorId: 12 });
      assert.equal(app.state.edit.status, 'editing');
    });

    it('the page left before it was locked: the configurator lock goes back with it', async (t) => {
      const { socket, app } = await handedOver(t);
      takeoverGranted(socket, app);
      await until(() => socket.sent.filter((f) => f.event === 'lock-item-subresource').length === 2);
      app.edit.leave(app.state.edit); // on to another page, as navigation does
      app.edit.open('item:6:filters', { ...OTHER_PAGE });
      await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(31), released: [] }]);
      await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: { ...lockOf(32), resource: OTHER_PAGE }, released: [] }]);
      const unlock = await until(() => socket.sent.find((f) => f.event === 'unlock-configurator'));
      assert.deepEqual(unlock.data, { configuratorId: 12 });
      await until(() => filtersUnlocks(socket).length === 1); // the page granted after it was left goes back too
    });
  });
});
