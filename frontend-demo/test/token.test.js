// editlock-client.js and the token's life: how it travels at the upgrade, renewal with `reauth`
// before it ends (token provider), and the server's close 4401 when it ended anyway.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { REFUSED_CODE, tokenExpiry } from '../editlock-client.js';
import {
  FakeSocket, FILTERS, connected as connectedTo, events, installFakeSockets, lockOf, removeFakeSockets, settled, until,
} from './support/scripted-server.js';

/** An unsigned JWT-shaped token (the client reads `exp`; only the server verifies). */
function jwt(name, endsInMs) {
  const part = (object) => Buffer.from(JSON.stringify(object)).toString('base64url');
  return `${part({ alg: 'RS256' })}.${part({ sub: '7', name, exp: Math.floor((Date.now() + endsInMs) / 1000) })}.sig`;
}

/** A token provider that hands out token-1, token-2, … each ending in `lifeMs`. */
function provider(lifeMs) {
  const handed = [];
  const next = async () => {
    const token = jwt(`token-${handed.length + 1}`, lifeMs);
    handed.push(token);
    return token;
  };
  return { next, handed };
}

function connected(options) {
  return connectedTo({ backoffBaseMs: 5, backoffMaxMs: 20, resumeRetryDelaysMs: [10], requestTimeoutMs: 2000, ...options });
}

describe('EditlockClient and its token', () => {
  beforeEach(installFakeSockets);
  afterEach(removeFakeSockets);

  it('reads when a token ends', () => {
    const token = jwt('a', 60_000);
    assert.ok(Math.abs(tokenExpiry(token) - (Date.now() + 60_000)) < 1500);
    assert.ok(Number.isNaN(tokenExpiry('not-a-jwt')));
  });

  it('sends the token as the subprotocol bearer.<jwt> next to editlock, never in the URL', async () => {
    const token = jwt('a', 60_000);
    const { client, socket } = await connected({ token });
    assert.equal(socket.url, 'ws://test/locking');
    assert.deepEqual(socket.protocols, ['editlock', `bearer.${token}`]);
    client.close();
  });

  it('can send it as ?access_token= instead', async () => {
    const { client, socket } = await connected({ token: 'a.b.c', tokenIn: 'query' });
    assert.equal(socket.url, 'ws://test/locking?access_token=a.b.c');
    assert.equal(socket.protocols, undefined);
    client.close();
  });

  it('renews the token with reauth before it ends, and again before the renewed one ends', async () => {
    const tokens = provider(1200);
    const { client, socket } = await connected({ token: tokens.next, reauthLeadMs: 1000 });
    const reauthed = events(client, 'reauthed');
    assert.equal(tokens.handed.length, 1, 'the first token opened the socket');

    const first = await socket.answer('reauth', (frame) => ['reauthed', { expiresAt: new Date(tokenExpiry(frame.data.accessToken)).toISOString() }]);
    assert.equal(first.data.accessToken, tokens.handed[1], 'a fresh token from the provider');
    const second = await socket.answer('reauth', (frame) => ['reauthed', { expiresAt: new Date(tokenExpiry(frame.data.accessToken)).toISOString() }]);
    assert.equal(second.data.accessToken, tokens.handed[2]);
    assert.equal(reauthed.length, 2);
    assert.equal(socket.closedWith, null, 'renewed on the open socket');
    assert.equal(client.state, 'open');
    client.close();
  });

  it('tries a refused renewal again while the token lasts', async () => {
    const tokens = provider(3000);
    const { client, socket } = await connected({ token: tokens.next, reauthLeadMs: 1200, reauthRetryMs: 100 });
    const failed = events(client, 'reauth-failed');
    await socket.answer('reauth', () => ['error', { code: 'UNAUTHORIZED', message: 'bad token' }]);
    await until(() => failed.length === 1);
    assert.equal(failed[0].error.code, 'UNAUTHORIZED');
    const retry = await socket.answer('reauth', () => ['reauthed', { expiresAt: new Date(Date.now() + 3_600_000).toISOString() }]);
    assert.equal(retry.data.accessToken, tokens.handed[2], 'the retry asks the provider again');
    assert.equal(client.state, 'open');
    client.close();
  });

  it('does not renew a plain string token', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.now() });
    const { client, socket } = await connected({ token: jwt('a', 600), reauthLeadMs: 500 });
    t.mock.timers.tick(60_000); // past the token's end: a planned renewal would have been due
    await settled();
    assert.equal(socket.sent.filter((f) => f.event === 'reauth').length, 0);
    client.close();
  });

  it('after close 4401 reconnects with a fresh token from the provider and resumes its locks', async () => {
    const tokens = provider(3_600_000);
    const { client, socket } = await connected({ token: tokens.next });
    const granted = client.lockItemPage(5, 'filters');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await granted;

    socket.closeByServer(4401, 'token expired');
    const second = await until(() => FakeSocket.all[1]);
    assert.deepEqual(second.protocols, ['editlock', `bearer.${tokens.handed[1]}`], 'a fresh token for the new socket');
    second.welcome('resume-2');
    const resume = await second.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    assert.equal(resume.data.resumeToken, 'resume-1');
    await until(() => client.state === 'open');
    assert.equal(client.heldLock(FILTERS).token, 17);
    client.close();
  });

  it('after close 4401 with a plain string token gives up: that token cannot open a socket again', async (t) => {
    const { client, socket } = await connected({ token: jwt('a', 1000) });
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const disconnected = events(client, 'disconnected');
    socket.closeByServer(4401, 'token expired');
    assert.deepEqual(disconnected, [{ code: 4401, reason: 'token expired', willReconnect: false }]);
    assert.equal(client.state, 'closed');
    t.mock.timers.tick(60_000); // far past the longest backoff (backoffMaxMs 20): a planned reconnect would have run
    await settled();
    assert.equal(FakeSocket.all.length, 1, 'no reconnect');
  });

  it('a client that stopped refuses requests at once, and connect() with a new token opens a socket', async () => {
    const { client, socket } = await connected({ token: jwt('a', 1000) });
    socket.closeByServer(4401, 'token expired');
    await assert.rejects(client.watch(12), (failure) => failure.code === 'CLOSED');
    client.options.token = jwt('b', 60_000);
    const ready = client.connect();
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    assert.equal((await ready).resumeToken, 'resume-2');
    const watching = client.watch(12);
    await second.answer('watch', () => ['lock-updated', { configuratorId: 12, locks: [] }]);
    assert.equal((await watching).configuratorId, 12);
    client.close();
  });

  it('after close 4401 with a plain string token, connect() whose socket is refused rejects and does not try again', async () => {
    const { client, socket } = await connected({ token: jwt('a', 1000) });
    socket.closeByServer(4401, 'token expired');
    const ready = client.connect(); // the same token: the upgrade is refused
    const settledAs = ready.then(() => 'resolved', (failure) => failure.code);
    const second = await until(() => FakeSocket.all[1]);
    second.drop();
    const outcome = await Promise.race([settledAs, new Promise((resolve) => setTimeout(() => resolve('still pending'), 300))]);
    assert.equal(outcome, 'DISCONNECTED');
    assert.equal(client.state, 'closed');
    assert.equal(FakeSocket.all.length, 2, 'not tried again with a token that cannot open a socket');
    client.close();
  });

  it('the browser coming back online while the provider is asked for a token opens no second socket', async () => {
    globalThis.window = new EventTarget();
    try {
      let handed = 0;
      const slow = async () => {
        handed += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
        return jwt(`token-${handed}`, 60_000);
      };
      const { client, socket } = await connected({ token: slow, activityTarget: null });
      socket.drop();
      await until(() => handed === 2); // the reconnect asks the provider
      window.dispatchEvent(new Event('online'));
      const second = await until(() => FakeSocket.all[1]);
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(FakeSocket.all.length, 2, 'one socket after the drop');
      assert.equal(handed, 2);
      second.welcome('resume-2');
      client.close();
    } finally {
      delete globalThis.window;
    }
  });

  it('a client that stops reports what it held: its locks lost, its lines and take-over requests gone', async () => {
    const { client, socket } = await connected({ token: jwt('a', 60_000) });
    const granted = client.lockItemPage(5, 'filters');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await granted;
    const variables = { type: 'variables', configuratorId: 12 };
    const waiting = client.waitFor(variables);
    await socket.answer('wait-for', (frame) => ['queued', { resource: frame.data.resource, position: 1 }]);
    await waiting;
    const structure = { type: 'configurator', configuratorId: 12 };
    const asked = client.requestTakeover(structure);
    await socket.answer('request-takeover', (frame) => ['takeover-pending', { resource: frame.data.resource, deadline: '2026-01-01T00:00:30Z' }]);
    await asked;
    const lost = events(client, 'lock-lost');
    const left = events(client, 'not-waiting');
    const failed = events(client, 'lock-failed');

    socket.closeByServer(4401, 'token expired'); // a plain token: no new socket can be opened
    assert.equal(client.state, 'closed');
    assert.deepEqual(lost, [{ resource: FILTERS, reason: 'disconnect' }], 'no page goes on claiming the lock');
    assert.equal(client.heldLock(FILTERS), undefined);
    assert.deepEqual(left.map((l) => l.resource), [variables]);
    assert.deepEqual(failed.map((f) => [f.resource, f.code]), [[structure, 'DISCONNECTED']]);
    assert.equal(client.waiting.size + client.takeovers.size, 0);
  });

  it('a server close with 1008 (too slow) is a drop: reconnects and resumes its locks', async () => {
    const { client, socket } = await connected({ token: jwt('a', 3_600_000) });
    const granted = client.lockItemPage(5, 'filters');
    await socket.answer('lock-item-subresource', () => ['lock-acquired', { lock: lockOf(17), released: [] }]);
    await granted;
    const disconnected = events(client, 'disconnected');
    const lost = events(client, 'lock-lost');

    socket.closeByServer(1008, 'too slow');
    assert.deepEqual(disconnected, [{ code: 1008, reason: 'too slow', willReconnect: true }]);
    const second = await until(() => FakeSocket.all[1]);
    second.welcome('resume-2');
    await second.answer('resume', () => ['resumed', { locks: [lockOf(17)] }]);
    await until(() => client.state === 'open');
    assert.equal(client.heldLock(FILTERS).token, 17);
    assert.deepEqual(lost, []);
    client.close();
  });

  it('a reconnect closed with 1008 (too many sockets) before its welcome tries again after the back-off', async () => {
    const { client, socket } = await connected({ token: jwt('a', 3_600_000) });
    socket.drop();
    const second = await until(() => FakeSocket.all[1]);
    second.closeByServer(1008, 'too many sockets'); // an upgrade that raced past the socket quota
    const third = await until(() => FakeSocket.all[2]);
    third.welcome('resume-3');
    await until(() => client.state === 'open');
    client.close();
  });

  it('a connection refused for good (REFUSED_CODE, a foreign Origin over Socket.IO) is not tried again', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] }); // before the renewal of the provider's token is planned
    const { client, socket } = await connected({ token: async () => jwt('a', 3_600_000) });
    const disconnected = events(client, 'disconnected');
    socket.closeByServer(REFUSED_CODE, 'FORBIDDEN');
    assert.equal(disconnected[0].willReconnect, false);
    assert.equal(client.state, 'closed');
    t.mock.timers.tick(60_000);
    await settled();
    assert.equal(FakeSocket.all.length, 1, 'no reconnect');
  });
});
