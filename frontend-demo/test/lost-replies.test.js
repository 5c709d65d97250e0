// editlock-client.js when a reply, a socket or a token does not come: a request whose reply was lost with its
// socket may have been carried out (docs/protocol.md §5, §13, §14), a socket still closing is gone, an open that
// close() left behind does not disturb the next, a connect() whose socket ended for good rejects, and a token
// provider that never answers does not hold the client up.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EditlockClient } from '../editlock-client.js';
import {
  FakeSocket, FILTERS, MemoryStorage, connected as connectedTo, deferred, events, installFakeSockets, lockOf as lockHeldBy,
  removeFakeSockets, until,
} from './support/scripted-server.js';

const lockOf = (token) => lockHeldBy(token, ['7', 'Tom']);
const VARIABLES = { type: 'variables', configuratorId: 12 };

function connected(options = {}) {
  return connectedTo({
    token: 'jwt', requestTimeoutMs: 1000, backoffBaseMs: 5, backoffMaxMs: 20, resumeRetryDelaysMs: [10, 10, 10], ...options,
  }, { resumeToken: 'r', userName: 'Tom' });
}

/** The socket drops; resolves with the next one, welcomed with `resumeToken`. */
async function dropped(socket, resumeToken) {
  const next = FakeSocket.all.length;
  socket.drop();
  const second = await until(() => FakeSocket.all[next]);
  second.welcome(resumeToken, 'Tom');
  return second;
}

/** The server refuses every resume the client tries (it retries RESUME_FAILED three times). */
async function refuseResume(socket) {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    await socket.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'gone' }]);
  }
}

/** The client holds VARIABLES (token 40). */
async function holdingVariables(client, socket) {
  const locked = client.lock(VARIABLES);
  await socket.answer('lock-variables', () => ['lock-acquired', { lock: { ...lockOf(40), resource: VARIABLES }, released: [] }]);
  await locked;
}

/** What a promise came to within `ms`: 'resolved', the rejection's code, or 'still pending'. */
function outcomeWithin(promise, ms) {
  const settledAs = promise.then(() => 'resolved', (failure) => failure.code);
  return Promise.race([settledAs, new Promise((resolve) => setTimeout(() => resolve('still pending'), ms))]);
}

describe('lost replies, closing sockets, opens and tokens that do not come', () => {
  beforeEach(installFakeSockets);
  afterEach(removeFakeSockets);

  it('a wait-for whose reply was lost in a drop keeps its line\u2019s grant after the resume: asked for again after the next drop', async () => {
    const { client, socket } = await connected();
    await holdingVariables(client, socket);
    const waiting = assert.rejects(client.waitFor(FILTERS), { code: 'DISCONNECTED' });
    await until(() => socket.sent.find((f) => f.event === 'wait-for'));
    const second = await dropped(socket, 'r2'); // before the reply: the server may have taken the user in
    await waiting;
    const resume = await second.answer('resume', () => ['resumed', { locks: [{ ...lockOf(40), resource: VARIABLES }] }]);
    assert.equal(resume.data.resumeToken, 'r');
    await until(() => client.state === 'open');
    const acquired = events(client, 'lock-acquired');
    second.push('lock-acquired', { lock: lockOf(31), released: [], queued: true }); // the place moved here, and is served
    assert.equal(acquired.length, 1);
    assert.equal(client.heldLock(FILTERS).token, 31);

    const third = await dropped(second, 'r3');
    const refusing = refuseResume(third);
    await until(() => third.sent.filter((f) => f.event.startsWith('lock-')).length === 2);
    const asked = third.sent.filter((f) => f.event.startsWith('lock-')).map((f) => f.event).sort();
    assert.deepEqual(asked, ['lock-item-subresource', 'lock-variables'], 'the line\u2019s grant is this tab\u2019s to keep');
    await third.answer('lock-variables', () => ['lock-acquired', { lock: { ...lockOf(40), resource: VARIABLES }, released: [] }]);
    await third.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(31), released: [] }]);
    await refusing;
    await until(() => client.state === 'open');
    assert.equal(client.heldLock(FILTERS).token, 31);
    client.close();
  });

  it('a take-over request whose reply was lost in a drop keeps its grant after the resume: asked for again after the next drop', async () => {
    const { client, socket } = await connected();
    await holdingVariables(client, socket);
    const asking = assert.rejects(client.requestTakeover(FILTERS, 'please'), { code: 'DISCONNECTED' });
    await until(() => socket.sent.find((f) => f.event === 'request-takeover'));
    const second = await dropped(socket, 'r2'); // before takeover-pending: the request may stand
    await asking;
    await second.answer('resume', () => ['resumed', { locks: [{ ...lockOf(40), resource: VARIABLES }] }]);
    await until(() => client.state === 'open');
    second.push('takeover-granted', { lock: lockOf(41) }); // the holder accepted the request that moved here
    assert.equal(client.heldLock(FILTERS).token, 41);

    const third = await dropped(second, 'r3');
    const refusing = refuseResume(third);
    await until(() => third.sent.filter((f) => f.event.startsWith('lock-')).length === 2);
    const asked = third.sent.filter((f) => f.event.startsWith('lock-')).map((f) => f.event).sort();
    assert.deepEqual(asked, ['lock-item-subresource', 'lock-variables'], 'the hand-over is this tab\u2019s to keep');
    await third.answer('lock-variables', () => ['lock-acquired', { lock: { ...lockOf(40), resource: VARIABLES }, released: [] }]);
    await third.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(41), released: [] }]);
    await refusing;
    client.close();
  });

  it('a take-over request whose reply was lost is resumed even by a tab that holds nothing, and its grant with the resume is told', async () => {
    const { client, socket } = await connected();
    const asking = assert.rejects(client.requestTakeover(FILTERS), { code: 'DISCONNECTED' });
    await until(() => socket.sent.find((f) => f.event === 'request-takeover'));
    const granted = events(client, 'takeover-granted');
    const second = await dropped(socket, 'r2');
    await asking;
    const resume = await second.answer('resume', () => ['resumed', { locks: [lockOf(41)] }]); // handed over during the drop
    assert.equal(resume.data.resumeToken, 'r');
    await until(() => client.state === 'open');
    assert.deepEqual(granted, [{ lock: lockOf(41) }]);
    assert.equal(client.heldLock(FILTERS).token, 41);
    client.close();
  });

  it('a take-over request whose reply was lost is kept for a resume until the consent window it may have opened is over', async () => {
    const storage = new MemoryStorage();
    const { client, socket } = await connected({ resumeStorage: storage, consentWindowMs: 2000, takeoverAnswerGraceMs: 100 });
    const asking = assert.rejects(client.requestTakeover(FILTERS), { code: 'DISCONNECTED' });
    await until(() => socket.sent.find((f) => f.event === 'request-takeover'));
    const second = await dropped(socket, 'r2');
    await asking;
    await second.answer('resume', () => ['resumed', { locks: [] }]); // the request may have moved here, or never come
    await until(() => client.state === 'open');
    const remembered = () => {
      client.rememberForReload();
      return storage.getItem(client.options.resumeStorageKey);
    };
    assert.ok(remembered(), 'within the window its outcome may still come: the socket keeps it for a reload too');
    await until(() => remembered() === null);
    const third = await dropped(second, 'r3');
    await until(() => client.state === 'open');
    assert.deepEqual(third.sent.map((f) => f.event), [], 'no resume: nothing can be kept for it any more');
    client.close();
  });

  it('a refused wait-for or take-over request keeps nothing: the next drop resumes nothing for it', async () => {
    const { client, socket } = await connected();
    const waiting = client.waitFor(FILTERS);
    await socket.answer('wait-for', () => ['error', { code: 'LIMIT_EXCEEDED', message: 'too many lines' }]);
    await assert.rejects(waiting, { code: 'LIMIT_EXCEEDED' });
    const asking = client.requestTakeover(VARIABLES);
    await socket.answer('request-takeover', () => ['lock-failed', { resource: VARIABLES, code: 'BUSY', message: 'asked' }]);
    await assert.rejects(asking, { code: 'BUSY' });
    const second = await dropped(socket, 'r2');
    await until(() => client.state === 'open');
    assert.deepEqual(second.sent.map((f) => f.event), [], 'no resume: this socket kept nothing');
    client.close();
  });

  it('a socket that is closing when a re-entry goes out is handled as gone: its locks wait for the next socket\u2019s resume', async () => {
    const { client, socket } = await connected({ resumeRetryDelaysMs: [50] });
    const locked = client.lockItemPage(5, 'filters');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await locked;
    const lost = events(client, 'lock-lost');
    const second = await dropped(socket, 'r2');
    await until(() => second.sent.find((f) => f.event === 'resume'));
    second.readyState = 2; // CLOSING: its close event has not come yet
    await second.answer('resume', () => ['error', { code: 'RESUME_FAILED', message: 'not yet' }]);
    const third = await until(() => FakeSocket.all[2]);
    third.welcome('r3', 'Tom');
    const resume = await third.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    assert.equal(resume.data.resumeToken, 'r2', 'the socket that closed while it resumed, newest first');
    await until(() => client.state === 'open');
    assert.deepEqual(lost, [], 'not lost: the server keeps it for the resume');
    assert.equal(client.heldLock(FILTERS).token, 17);
    assert.equal(second.sent.some((f) => f.event.startsWith('lock-')), false, 'nothing sent on a closing socket');
    second.closeByServer(1006, ''); // its close event, late: nothing more happens
    assert.equal(client.state, 'open');
    client.close();
  });

  it('an open that close() left behind does not let a second socket open beside the reconnect\u2019s', async () => {
    globalThis.window = new EventTarget();
    try {
      const asked = [];
      const token = () => {
        const answer = deferred();
        asked.push(answer);
        return answer.promise;
      };
      const client = new EditlockClient({
        token, url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, backoffBaseMs: 5, backoffMaxMs: 20,
        requestTimeoutMs: 5000,
      });
      const abandoned = client.connect();
      await until(() => asked.length === 1);
      client.close(); // while the provider runs: that open is left behind
      await assert.rejects(abandoned, { code: 'CLOSED' });
      const ready = client.connect();
      await until(() => asked.length === 2);
      asked[1].resolve('jwt-2');
      const socket = await until(() => FakeSocket.all[0]);
      socket.welcome('r', 'Tom');
      await ready;
      socket.drop();
      await until(() => asked.length === 3); // the reconnect asks the provider
      asked[0].resolve('jwt-1'); // the open close() left behind ends now
      await new Promise((resolve) => setTimeout(resolve, 20));
      window.dispatchEvent(new Event('online'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      asked.slice(2).forEach((answer, i) => answer.resolve(`jwt-${i + 3}`));
      const second = await until(() => FakeSocket.all[1]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(FakeSocket.all.length, 2, 'one socket after the drop');
      assert.equal(asked.length, 3, 'the reconnect under way was not started again');
      second.welcome('r2', 'Tom');
      await until(() => client.state === 'open');
      client.close();
    } finally {
      delete globalThis.window;
    }
  });

  it('connect() rejects when its socket ends for good while it resumes what the page before kept', async () => {
    const storage = new MemoryStorage();
    const { client: before, socket } = await connected({ resumeStorage: storage });
    const locked = before.lockItemPage(5, 'filters');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await locked;
    before.rememberForReload();

    const after = new EditlockClient({
      token: 'plain-jwt', url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, resumeStorage: storage,
      reloadResumeRetryDelaysMs: [10], requestTimeoutMs: 1000,
    });
    const ready = after.connect();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('r2', 'Tom');
    await until(() => second.sent.find((f) => f.event === 'resume'));
    second.closeByServer(4401, 'token expired'); // a plain token: the client stops for good
    assert.equal(after.state, 'closed');
    assert.equal(await outcomeWithin(ready, 300), 'DISCONNECTED', 'no welcome for a client that is closed');
    assert.equal(after.state, 'closed');
    before.close();
  });

  it('a token provider that does not answer fails the first connect() with TIMEOUT', async () => {
    const client = new EditlockClient({
      token: () => new Promise(() => {}), url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false,
      requestTimeoutMs: 100,
    });
    const ready = client.connect();
    const watching = client.watch(12);
    assert.equal(await outcomeWithin(ready, 1000), 'TIMEOUT');
    assert.equal(await outcomeWithin(watching, 100), 'CLOSED');
    assert.equal(client.state, 'closed');
    assert.equal(FakeSocket.all.length, 0);
  });

  it('a token provider that does not answer on a reconnect is asked again after the back-off, and the requests go out then', async () => {
    let calls = 0;
    const token = () => {
      calls += 1;
      return calls === 2 ? new Promise(() => {}) : Promise.resolve(`jwt-${calls}`); // the second never answers
    };
    const { client, socket } = await connected({ token, requestTimeoutMs: 100 });
    const reconnecting = events(client, 'reconnecting');
    socket.drop();
    const watching = client.watch(12);
    const second = await until(() => FakeSocket.all[1], 2000);
    assert.equal(calls, 3, 'asked again');
    assert.equal(reconnecting.length, 2, 'the hanging token counted as a failed attempt');
    second.welcome('r2', 'Tom');
    await second.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [] }]); // watched again
    await second.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [] }]); // the app's, sent now
    assert.equal((await watching).configuratorId, 12);
    client.close();
  });
});
