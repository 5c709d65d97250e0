// The demo's signing in and out (app/sign-in.js) with fakes for the parts it reaches: the socket closes only
// once the deletes still waiting for their Undo are answered; a token the server refuses (a restart with a new
// signing key) is replaced by a new demo token of the same user, and only a refused demo login signs out.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createSignIn } from '../app/sign-in.js';
import { initialState } from '../app/store.js';
import { ApiError } from '../api.js';
import { FakeSocket, MemoryStorage, deferred, installFakeSockets, removeFakeSockets, settled, until } from './support/scripted-server.js';

/** A signed-in demo whose writes have `deletes` waiting to be sent; the client records its closes. */
function signedIn(deletes) {
  const closes = [];
  const app = {
    state: { ...initialState(), auth: { token: 't', userId: 'demo-sara', name: 'Sara', admin: false }, route: { view: 'item', configuratorId: 12 } },
    render: () => {},
    toast: () => () => {},
    session: { client: { close: (reason) => closes.push(reason) }, handover: { close() {} } },
    sentWhileSignedIn: null,
  };
  app.writes = {
    sendPendingDeletes: () => {
      app.sentWhileSignedIn = app.session !== null;
      return deletes;
    },
  };
  return { app, closes, signIn: createSignIn(app) };
}

describe('the demo\u2019s sign-out', () => {
  beforeEach(() => {
    globalThis.localStorage = new MemoryStorage();
    globalThis.history = { replaceState() {} };
  });
  afterEach(() => {
    delete globalThis.localStorage;
    delete globalThis.history;
  });

  it('closes the socket, which frees the page\u2019s lock, only once the pending deletes are answered', async () => {
    const deleted = deferred();
    const { app, closes, signIn } = signedIn([deleted.promise]);
    const done = signIn.signOut();
    assert.equal(app.sentWhileSignedIn, true, 'the deletes went out with the session and its lock');
    assert.equal(app.state.auth, null, 'the screen is signed out at once');
    await settled();
    assert.deepEqual(closes, [], 'the lock still fences the delete');
    deleted.resolve(false); // refused or not, it is answered
    await done;
    assert.deepEqual(closes, ['signed out']);
  });

  it('closes at once when nothing waits to be deleted', async () => {
    const { closes, signIn } = signedIn([]);
    await signIn.signOut();
    assert.deepEqual(closes, ['signed out']);
  });
});

/** An unsigned JWT-shaped token that ends in an hour (the demo reads `exp`; only the server verifies). */
function jwt(name) {
  const part = (object) => Buffer.from(JSON.stringify(object)).toString('base64url');
  return `${part({ alg: 'RS256' })}.${part({ sub: 'demo-sara', name, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}

const OLD = jwt('issued before the restart');
const NEW = jwt('issued after the restart');

/**
 * The server after a restart with a new signing key: the REST API refuses `OLD` (401) and accepts `NEW`;
 * demo login answers `login()` ({status, body}). Records every call as `METHOD path Bearer-token`.
 */
function restartedServer(login = () => ({ status: 200, body: { token: NEW } })) {
  const calls = [];
  const logins = [];
  globalThis.fetch = async (path, { method = 'GET', headers = {}, body } = {}) => {
    const bearer = (headers.Authorization || '').replace('Bearer ', '');
    calls.push({ method, path, token: bearer });
    if (path === '/api/auth/demo-login') {
      logins.push(JSON.parse(body));
      const { status, body: answer } = login();
      return new Response(JSON.stringify(answer), { status });
    }
    return bearer === NEW
      ? new Response('[]', { status: 200 })
      : new Response(JSON.stringify({ message: 'the bearer token is not valid (signature, issuer, audience, expiry or subject)' }), { status: 401 });
  };
  return { calls, logins };
}

/** A demo whose parts around sign-in.js are fakes; toasts are kept in `app.toasts`. */
function demo() {
  const app = {
    state: initialState(),
    render: () => {},
    toasts: [],
    toast: (text) => { app.toasts.push(text); return () => {}; },
    session: null,
    navigated: 0,
    navigation: { navigate: async () => { app.navigated += 1; } },
    edit: { reconnected() {}, lockUpdated() {}, lockReleased() {}, lockLost() {}, retaken() {}, granted() {}, acquire() {} },
    configurator: { scheduleReload() {}, contentChanged() {} },
    writes: { sendPendingDeletes: () => [] },
  };
  app.signIn = createSignIn(app);
  return app;
}

/** The bearer token a socket was opened with. */
const bearerOf = (socket) => socket.protocols.find((protocol) => protocol.startsWith('bearer.')).slice('bearer.'.length);

describe('the demo\u2019s sign-in after the server restarted with a new signing key', () => {
  const sara = () => ({ token: OLD, userId: 'demo-sara', name: 'Sara', admin: false });

  beforeEach(() => {
    installFakeSockets();
    globalThis.localStorage = new MemoryStorage();
    globalThis.history = { replaceState() {} };
    globalThis.location = { protocol: 'http:', host: 'test', search: '', hash: '#/' };
  });
  afterEach(() => {
    removeFakeSockets();
    for (const name of ['localStorage', 'history', 'location', 'fetch']) {
      delete globalThis[name];
    }
  });

  it('a socket that keeps failing to reconnect has the token checked; a refused one is replaced for the same user, and the client reconnects with it', async (t) => {
    const { logins } = restartedServer();
    const app = demo();
    const started = app.signIn.startWorkspace(sara());
    (await until(() => FakeSocket.all[0])).welcome('resume-1');
    await started;
    t.after(() => app.session?.client.close());
    assert.equal(app.navigated, 1);

    FakeSocket.all[0].drop(); // the server stops
    const refusedUpgrade = await until(() => FakeSocket.all[1], 5000); // it is back: the upgrade is refused (401)
    assert.equal(bearerOf(refusedUpgrade), OLD);
    refusedUpgrade.drop();
    const again = await until(() => FakeSocket.all[2], 5000);
    assert.equal(bearerOf(again), NEW, 'the next attempt carries the new token');
    again.welcome('resume-2');
    await until(() => app.state.connection === 'open');

    assert.deepEqual(logins, [{ userId: 'demo-sara', name: 'Sara', roles: [] }], 'one new token, for the same user');
    assert.equal(app.state.auth.token, NEW);
    assert.equal(app.state.auth.userId, 'demo-sara');
    assert.equal(JSON.parse(globalThis.localStorage.getItem('editlock.demo.session')).auth.token, NEW, 'kept for the browser\u2019s other tabs and reloads');
    assert.deepEqual(app.toasts, [], 'nobody was signed out');
  });

  it('a REST call refused with 401 says so in words and has the token replaced', async (t) => {
    const { logins } = restartedServer();
    const app = demo();
    const started = app.signIn.startWorkspace(sara());
    (await until(() => FakeSocket.all[0])).welcome('resume-1');
    await started;
    t.after(() => app.session?.client.close());

    const refused = await app.session.api.call('GET', '/api/configurators/12').catch((failure) => failure);
    assert.ok(refused instanceof ApiError);
    assert.equal(refused.status, 401);
    assert.equal(refused.message, 'The server no longer accepts your sign-in.', 'not the server\u2019s words about JWT checks');
    await until(() => app.state.auth.token === NEW);
    assert.equal(logins.length, 1);
    assert.deepEqual(await app.session.api.call('GET', '/api/configurators/12'), []);
  });

  it('a reloaded tab whose token is refused is signed in again instead of signed out', async (t) => {
    const { logins } = restartedServer();
    const app = demo();
    const started = app.signIn.startWorkspace(sara()); // the kept sign-in, from before the restart
    const refusedUpgrade = await until(() => FakeSocket.all[0]);
    refusedUpgrade.drop();
    const again = await until(() => FakeSocket.all[1]);
    assert.equal(bearerOf(again), NEW);
    again.welcome('resume-1');
    await started;
    t.after(() => app.session?.client.close());
    assert.equal(app.navigated, 1, 'the page of the route opens');
    assert.equal(logins.length, 1);
    assert.notEqual(app.state.auth, null);
  });

  it('a new token refused too is not followed at once by another demo login: the next attempt waits', async () => {
    // Nodes behind one address that sign with different keys: each new token is refused as the old one was.
    const logins = [];
    globalThis.fetch = async (path, { body } = {}) => {
      if (path === '/api/auth/demo-login') {
        logins.push(JSON.parse(body));
        return new Response(JSON.stringify({ token: jwt(`new ${logins.length}`) }), { status: 200 });
      }
      return new Response(JSON.stringify({ message: 'no' }), { status: 401 });
    };
    const app = demo();
    const started = app.signIn.startWorkspace(sara());
    try {
      (await until(() => FakeSocket.all[0])).drop();
      (await until(() => FakeSocket.all[1], 3000)).drop(); // the new token, tried at once: refused too
      await until(() => logins.length === 2);
      await new Promise((resolve) => { setTimeout(resolve, 500); });
      assert.equal(FakeSocket.all.length, 2, 'no third attempt within half a second');
      assert.equal(logins.length, 2, 'nor a third demo login');
    } finally {
      await app.signIn.signOut();
      await started;
    }
  });

  it('signs out only when demo login refuses the user too', async () => {
    restartedServer(() => ({ status: 404, body: {} })); // demo login switched off
    const app = demo();
    const started = app.signIn.startWorkspace(sara());
    (await until(() => FakeSocket.all[0])).drop();
    await started;
    assert.equal(app.state.auth, null);
    assert.equal(app.session, null);
    assert.deepEqual(app.toasts, ['Your session has ended. Please sign in again.']);
    assert.equal(app.navigated, 0);
  });

  it('keeps trying, signed in, while demo login cannot be reached', async (t) => {
    let reachable = false;
    const { logins } = restartedServer(() => (reachable ? { status: 200, body: { token: NEW } } : { status: 503, body: {} }));
    const app = demo();
    const started = app.signIn.startWorkspace(sara());
    (await until(() => FakeSocket.all[0])).drop();
    await until(() => logins.length === 1);
    assert.notEqual(app.state.auth, null, 'not signed out for a login that could not be asked');
    reachable = true;
    const again = await until(() => FakeSocket.all[1], 3000); // tried again after a second
    again.drop(); // refused again: the check comes back, and gets a token now
    const last = await until(() => FakeSocket.all[2], 5000);
    assert.equal(bearerOf(last), NEW);
    last.welcome('resume-1');
    await started;
    t.after(() => app.session?.client.close());
    assert.equal(app.navigated, 1);
  });
});
