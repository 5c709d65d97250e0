// Socket.IO clients (docs/protocol.md §12) against the built server, with the real socket.io-client:
// each transport and the upgrade, acks and events, a Socket.IO user beside a /locking user, identity,
// bad input, the frame limit, a clean disconnect, a lost transport and resume, two nodes, a node that stops.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startServer, OWN_SERVER_ONLY } from './server.js';
import { LockingSocket, createConfigurator, eventually, login, socketIo } from './socketio-clients.js';

const closers = [];
function track(client) {
  closers.push(() => (client.socket ? client.socket.disconnect() : client.close()));
  return client;
}
function closeAll() {
  while (closers.length) {
    closers.pop()();
  }
}

describe('Socket.IO clients on one node', { timeout: 300_000 }, () => {
  let server;
  let base;

  before(async () => {
    server = await startServer();
    base = server.baseUrl;
  });
  after(async () => {
    closeAll();
    await server?.stop();
  });

  it('starts on long-polling, upgrades to WebSocket, and answers requests without an ack as events', async () => {
    const token = await login(base, 'sara', 'Sara');
    const configuratorId = await createConfigurator(base, token, 'upgrade');
    const sara = track(socketIo(base, token));
    const welcome = await sara.welcome;
    assert.equal(welcome.userId, 'sara');
    assert.ok(welcome.resumeToken, 'welcome carries a resumeToken');
    const { engine } = sara.socket.io;
    if (engine.transport.name !== 'websocket') {
      await new Promise((resolve) => engine.once('upgrade', resolve));
    }

    sara.socket.emit('lock-configurator', { configuratorId });
    const acquired = await sara.log.waitFor('lock-acquired');
    assert.deepEqual(acquired.lock.resource, { type: 'configurator', configuratorId });
    assert.deepEqual(acquired.released, []);
    assert.ok(acquired.lock.token, 'the holder gets the fencing token');
  });

  for (const transports of [['websocket'], ['polling']]) {
    it(`${transports[0]} only: a request with an ack gets its reply as the ack's one argument`, async () => {
      const token = await login(base, `user-${transports[0]}`, 'Tess');
      const configuratorId = await createConfigurator(base, token, `only ${transports[0]}`);
      const tess = track(socketIo(base, token, { transports }));
      await tess.welcome;
      assert.equal(tess.socket.io.engine.transport.name, transports[0]);

      const reply = await tess.socket.timeout(10_000).emitWithAck('lock-variables', { configuratorId });
      assert.equal(reply.event, 'lock-acquired');
      assert.deepEqual(reply.data.lock.resource, { type: 'variables', configuratorId });
      const watched = await tess.socket.timeout(10_000).emitWithAck('watch', { configuratorId });
      assert.equal(watched.event, 'lock-updated');
      assert.equal(watched.data.locks.length, 1);
      const touched = await tess.socket.timeout(10_000).emitWithAck('touch');
      assert.equal(touched.event, 'touched');
    });
  }

  it('a Socket.IO user and a /locking user block each other and see each other\'s broadcasts', async () => {
    const saraToken = await login(base, 'sara2', 'Sara');
    const omarToken = await login(base, 'omar2', 'Omar');
    const configuratorId = await createConfigurator(base, saraToken, 'shared');
    const sara = track(socketIo(base, saraToken));
    const omar = track(new LockingSocket(base, omarToken));
    await Promise.all([sara.welcome, omar.welcome]);
    await omar.request('watch', { configuratorId });
    await sara.socket.emitWithAck('watch', { configuratorId });

    const granted = await sara.socket.emitWithAck('lock-configurator', { configuratorId });
    assert.equal(granted.event, 'lock-acquired');
    const refused = await omar.request('lock-configurator', { configuratorId });
    assert.equal(refused.event, 'lock-failed');
    assert.equal(refused.data.code, 'LOCKED');
    assert.equal(refused.data.lockedBy, 'Sara');
    await omar.log.waitFor('lock-updated', (data) => data.locks.some((lock) => lock.ownerUserId === 'sara2'));

    await sara.socket.emitWithAck('unlock-configurator', { configuratorId });
    const released = await omar.log.waitFor('lock-released', (data) => data.ownerUserId === 'sara2');
    assert.equal(released.reason, 'unlock');

    const omarGranted = await omar.request('lock-configurator', { configuratorId });
    assert.equal(omarGranted.event, 'lock-acquired');
    const saraRefused = await sara.socket.emitWithAck('lock-variables', { configuratorId });
    assert.equal(saraRefused.event, 'lock-failed');
    assert.equal(saraRefused.data.lockedBy, 'Omar');
    await sara.log.waitFor('lock-updated', (data) => data.locks.some((lock) => lock.ownerUserId === 'omar2'));
    omar.request('unlock-configurator', { configuratorId });
    await sara.log.waitFor('lock-released', (data) => data.ownerUserId === 'omar2');
  });

  it('a bad or missing token makes connect_error fire with UNAUTHORIZED; a foreign Origin with FORBIDDEN', async () => {
    for (const token of ['not-a-token', '']) {
      const client = track(socketIo(base, token, { reconnection: false }));
      const error = await client.log.waitFor('connect_error');
      assert.equal(error.message, 'UNAUTHORIZED');
      assert.deepEqual(error.data, { code: 'UNAUTHORIZED' });
    }
    const token = await login(base, 'mallory');
    const foreign = track(socketIo(base, token, { reconnection: false, transports: ['websocket'],
      extraHeaders: { Origin: 'https://evil.example' } }));
    const error = await foreign.log.waitFor('connect_error');
    assert.equal(error.message, 'FORBIDDEN');
    assert.deepEqual(error.data, { code: 'FORBIDDEN' });
  });

  it('takes the token from the handshake request too: ?access_token=, Authorization: Bearer or a bearer.<jwt> subprotocol', async () => {
    const token = await login(base, 'hana', 'Hana');
    const byQuery = track(socketIo(base, undefined, { query: { access_token: token } }));
    assert.equal((await byQuery.welcome).userId, 'hana');
    const byHeader = track(socketIo(base, undefined, { transports: ['websocket'], extraHeaders: { Authorization: `Bearer ${token}` } }));
    assert.equal((await byHeader.welcome).userId, 'hana');
    const bySubprotocol = track(socketIo(base, undefined, { transports: ['websocket'], protocols: ['editlock', `bearer.${token}`] }));
    assert.equal((await bySubprotocol.welcome).userId, 'hana');
  });

  it('counts Socket.IO sockets towards the user\'s sockets on a node: of 30 connects at once, 20 open, 10 get LIMIT_EXCEEDED', async () => {
    const socketsPerUser = 20; // docs/protocol.md §4, the default
    const token = await login(base, 'many', 'Many');
    const outcomes = await Promise.all(Array.from({ length: socketsPerUser + 10 }, () => {
      const client = track(socketIo(base, token, { transports: ['websocket'], reconnection: false }));
      return new Promise((resolve) => {
        client.socket.once('welcome', () => resolve('welcome'));
        client.socket.once('connect_error', (error) => resolve({ message: error.message, data: error.data }));
      });
    }));
    const refused = outcomes.filter((outcome) => outcome !== 'welcome');
    assert.equal(outcomes.length - refused.length, socketsPerUser, JSON.stringify(refused));
    for (const refusal of refused) {
      assert.deepEqual(refusal, { message: 'LIMIT_EXCEEDED', data: { code: 'LIMIT_EXCEEDED' } });
    }
  });

  it('renews the socket\'s identity with reauth, as on /locking', async () => {
    const token = await login(base, 'rene', 'René');
    const rene = track(socketIo(base, token));
    await rene.welcome;
    const renewed = await rene.socket.emitWithAck('reauth', { accessToken: await login(base, 'rene', 'René') });
    assert.equal(renewed.event, 'reauthed', JSON.stringify(renewed));
    const someoneElse = await rene.socket.emitWithAck('reauth', { accessToken: await login(base, 'not-rene') });
    assert.equal(someoneElse.event, 'error');
    assert.equal(someoneElse.data.code, 'UNAUTHORIZED');
  });

  it('refuses other namespaces', async () => {
    const token = await login(base, 'nina');
    const socket = (await import('socket.io-client')).io(`${base}/admin`, { auth: { token }, forceNew: true, reconnection: false });
    closers.push(() => socket.disconnect());
    const error = await new Promise((resolve) => socket.on('connect_error', resolve));
    assert.equal(error.message, 'Invalid namespace');
  });

  it('answers bad input with BAD_REQUEST and changes nothing', async () => {
    const token = await login(base, 'bea', 'Bea');
    const configuratorId = await createConfigurator(base, token, 'bad input');
    const bea = track(socketIo(base, token));
    await bea.welcome;
    const cases = [
      ['lock-configurator', { configuratorId: 'twelve' }],
      ['lock-configurator', undefined],
      ['no-such-event', { configuratorId }],
      ['lock-item-subresource', { itemId: 1, page: 'nowhere' }],
      ['lock-configurator', Buffer.from('binary')],
    ];
    for (const [event, data] of cases) {
      const reply = await bea.socket.timeout(10_000).emitWithAck(event, data);
      assert.equal(reply.event, 'error', `${event} ${JSON.stringify(data)}`);
      assert.equal(reply.data.code, 'BAD_REQUEST', `${event} ${JSON.stringify(data)}`);
    }
    const from = bea.log.size;
    bea.socket.emit('lock-configurator', { configuratorId: -1 });
    const error = await bea.log.waitFor('error', () => true, { from });
    assert.equal(error.code, 'BAD_REQUEST');
    const state = await bea.socket.emitWithAck('watch', { configuratorId });
    assert.deepEqual(state.data.locks, [], 'bad input granted nothing');
    assert.ok(bea.socket.connected, 'bad input does not end the socket');
  });

  it('the lock request rate limit holds for Socket.IO sockets too', async () => {
    const token = await login(base, 'rita', 'Rita');
    const configuratorId = await createConfigurator(base, token, 'rate');
    const rita = track(socketIo(base, token, { transports: ['websocket'] }));
    await rita.welcome;
    const replies = await Promise.all(Array.from({ length: 120 },
      () => rita.socket.timeout(20_000).emitWithAck('lock-configurator', { configuratorId })));
    const limited = replies.filter((reply) => reply.event === 'lock-failed' && reply.data.code === 'RATE_LIMITED');
    assert.ok(limited.length > 0, 'some of 120 lock requests at once are refused RATE_LIMITED');
    assert.ok(replies.some((reply) => reply.event === 'lock-acquired'), 'the first ones are granted');
  });

  it('a clean disconnect releases at once', async () => {
    const saraToken = await login(base, 'sara3', 'Sara');
    const omarToken = await login(base, 'omar3', 'Omar');
    const configuratorId = await createConfigurator(base, saraToken, 'clean close');
    const sara = socketIo(base, saraToken);
    const omar = track(new LockingSocket(base, omarToken));
    await Promise.all([sara.welcome, omar.welcome]);
    await omar.request('watch', { configuratorId });
    await sara.socket.emitWithAck('lock-configurator', { configuratorId });

    const started = Date.now();
    sara.socket.disconnect();
    const released = await omar.log.waitFor('lock-released', (data) => data.ownerUserId === 'sara3', { timeout: 5_000 });
    assert.equal(released.reason, 'disconnect');
    assert.ok(Date.now() - started < 5_000, 'released well before the grace period would end');
    assert.equal((await omar.request('lock-configurator', { configuratorId })).event, 'lock-acquired');
  });

  it('a killed transport is a drop: the client reconnects by itself and resumes its locks', async () => {
    const saraToken = await login(base, 'sara4', 'Sara');
    const omarToken = await login(base, 'omar4', 'Omar');
    const configuratorId = await createConfigurator(base, saraToken, 'drop');
    const sara = track(socketIo(base, saraToken, { transports: ['websocket'], reconnectionDelay: 200 }));
    const omar = track(new LockingSocket(base, omarToken));
    const first = await sara.welcome;
    await omar.welcome;
    await sara.socket.emitWithAck('lock-configurator', { configuratorId });

    const from = sara.log.size;
    sara.socket.io.engine.transport.ws._socket.destroy(); // the TCP connection dies, no close frame
    await sara.log.waitFor('disconnect', () => true, { from });
    const refused = await omar.request('lock-configurator', { configuratorId });
    assert.equal(refused.data.code, 'LOCKED', 'the dropped socket keeps its lock during the grace period');

    const second = await sara.log.waitFor('welcome', () => true, { from });
    assert.notEqual(second.socketId, first.socketId);
    const resumed = await sara.socket.emitWithAck('resume', { resumeToken: first.resumeToken });
    assert.equal(resumed.event, 'resumed');
    assert.deepEqual(resumed.data.locks.map((lock) => lock.resource), [{ type: 'configurator', configuratorId }]);
    const unlocked = await sara.socket.emitWithAck('unlock-configurator', { configuratorId });
    assert.equal(unlocked.event, 'lock-released', 'the new socket holds the lock');
  });

  it('a holder who reloads while a take-over request stands is asked again on the new socket and can refuse', async () => {
    const saraToken = await login(base, 'sara6', 'Sara');
    const tomToken = await login(base, 'tom6', 'Tom');
    const configuratorId = await createConfigurator(base, saraToken, 'asked before a reload');
    const resource = { type: 'configurator', configuratorId };
    const before = socketIo(base, saraToken, { transports: ['websocket'], reconnection: false });
    const tom = track(new LockingSocket(base, tomToken));
    const first = await before.welcome;
    await tom.welcome;
    await before.socket.emitWithAck('lock-configurator', { configuratorId });
    const pending = await tom.request('request-takeover', { resource });
    assert.equal(pending.event, 'takeover-pending', JSON.stringify(pending));
    const asked = await before.log.waitFor('takeover-requested');

    before.socket.io.engine.transport.ws._socket.destroy(); // the page reloads: its socket drops
    const sara = track(socketIo(base, saraToken, { transports: ['websocket'] }));
    await sara.welcome;
    const resumed = await sara.socket.emitWithAck('resume', { resumeToken: first.resumeToken });
    assert.equal(resumed.event, 'resumed', JSON.stringify(resumed));
    const again = await sara.log.waitFor('takeover-requested');
    assert.deepEqual(again.resource, resource);
    assert.equal(again.byUserId, 'tom6');
    assert.equal(again.deadline, asked.deadline, 'the same request, the same deadline');

    const answered = await sara.socket.emitWithAck('answer-takeover', { resource, accept: false });
    assert.equal(answered.event, 'takeover-answered', JSON.stringify(answered));
    assert.equal((await tom.log.waitFor('takeover-refused')).byUserName, 'Sara');
    const refused = await tom.request('lock-configurator', { configuratorId });
    assert.equal(refused.data.code, 'LOCKED', 'Sara keeps the page');
  });

  for (const transports of [['websocket'], ['polling']]) {
    it(`${transports[0]}: a message over maxPayload ends the transport; the client reconnects`, async () => {
      const token = await login(base, `big-${transports[0]}`);
      const client = track(socketIo(base, token, { transports, reconnectionDelay: 200 }));
      await client.welcome;
      const from = client.log.size;
      client.socket.emit('touch', { padding: 'x'.repeat(20_000) });
      const reason = await client.log.waitFor('disconnect', () => true, { from });
      assert.match(reason, /transport (close|error)/);
      await client.log.waitFor('welcome', () => true, { from });
      const touched = await client.socket.emitWithAck('touch', {});
      assert.equal(touched.event, 'touched');
    });
  }

  it('answers a bad Engine.IO handshake with 400 and the standard error body', async () => {
    const cases = [
      ['EIO=3&transport=polling', 5, 'Unsupported protocol version'],
      ['EIO=4&transport=carrier-pigeon', 0, 'Transport unknown'],
      ['EIO=4&transport=polling&sid=nobody', 1, 'Session ID unknown'],
    ];
    for (const [query, code, message] of cases) {
      const response = await fetch(`${base}/socket.io/?${query}`);
      assert.equal(response.status, 400, query);
      assert.deepEqual(await response.json(), { code, message }, query);
    }
    const post = await fetch(`${base}/socket.io/?EIO=4&transport=polling`, { method: 'POST', body: '40' });
    assert.equal(post.status, 400);
    assert.deepEqual(await post.json(), { code: 2, message: 'Bad handshake method' });
  });
});

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

describe('Socket.IO clients across two nodes', { timeout: 300_000, skip: OWN_SERVER_ONLY }, () => {
  let redis;
  let nodes = [];

  before(async () => {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' });
    const url = `redis://127.0.0.1:${port}`;
    nodes = await Promise.all([startServer({ 'quarkus.redis.hosts': url }), startServer({ 'quarkus.redis.hosts': url })]);
  });
  after(async () => {
    closeAll();
    await Promise.all(nodes.map((node) => node.stop()));
    redis?.kill('SIGTERM');
  });

  it('a Socket.IO user on one node and a /locking user on the other block each other and see the broadcasts', async () => {
    const [one, two] = nodes.map((node) => node.baseUrl);
    const saraToken = await login(one, 'sara5', 'Sara');
    const omarToken = await login(two, 'omar5', 'Omar');
    const configuratorId = await createConfigurator(one, saraToken, 'two nodes');
    const sara = track(socketIo(one, saraToken));
    const omar = track(new LockingSocket(two, omarToken));
    await Promise.all([sara.welcome, omar.welcome]);
    await omar.request('watch', { configuratorId });
    await sara.socket.emitWithAck('watch', { configuratorId });

    assert.equal((await sara.socket.emitWithAck('lock-configurator', { configuratorId })).event, 'lock-acquired');
    assert.equal((await omar.request('lock-variables', { configuratorId })).data.code, 'LOCKED');
    await omar.log.waitFor('lock-updated', (data) => data.locks.some((lock) => lock.ownerUserId === 'sara5'));
    await sara.socket.emitWithAck('unlock-configurator', { configuratorId });
    await omar.log.waitFor('lock-released', (data) => data.ownerUserId === 'sara5');
    assert.equal((await omar.request('lock-variables', { configuratorId })).event, 'lock-acquired');
    await sara.log.waitFor('lock-updated', (data) => data.locks.some((lock) => lock.ownerUserId === 'omar5'));
  });

  it('a Socket.IO socket dropped on one node resumes on the other', async () => {
    const [one, two] = nodes.map((node) => node.baseUrl);
    const token = await login(one, 'sara6', 'Sara');
    const configuratorId = await createConfigurator(one, token, 'resume elsewhere');
    const first = socketIo(one, token, { transports: ['websocket'], reconnection: false });
    const welcome = await first.welcome;
    await first.socket.emitWithAck('lock-configurator', { configuratorId });
    first.socket.io.engine.transport.ws._socket.destroy();
    await first.log.waitFor('disconnect');

    // Each node of this test signs its own demo tokens: the same user signs in on the other node.
    const second = track(socketIo(two, await login(two, 'sara6', 'Sara'), { transports: ['websocket'] }));
    await second.welcome;
    const resumed = await eventually(async () => {
      const reply = await second.socket.emitWithAck('resume', { resumeToken: welcome.resumeToken });
      return reply.event === 'resumed' ? reply : null;
    });
    assert.deepEqual(resumed.data.locks.map((lock) => lock.resource), [{ type: 'configurator', configuratorId }]);
  });
});

describe('Socket.IO clients of a node that stops', { timeout: 300_000, skip: OWN_SERVER_ONLY }, () => {
  let redis;
  let url;
  let staying;

  before(async () => {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' });
    url = `redis://127.0.0.1:${port}`;
    staying = await startServer({ 'quarkus.redis.hosts': url });
  });
  after(async () => {
    closeAll();
    await staying?.stop();
    redis?.kill('SIGTERM');
  });

  // docs/protocol.md §5, §12: SIGTERM (a deploy) ends the node's sockets as drops. The Socket.IO client
  // must read it as a lost transport, which it reconnects after by itself (not as the server's
  // disconnect, after which it stays away), and resume on another node with the same grant.
  for (const transports of [['websocket'], ['polling']]) {
    it(`${transports[0]}: the client reconnects by itself and resumes on another node; the page is never free`,
      async () => {
        const leaving = await startServer({ 'quarkus.redis.hosts': url });
        const user = `stop-${transports[0]}`;
        const token = await login(leaving.baseUrl, user, 'Sara');
        const configuratorId = await createConfigurator(leaving.baseUrl, token, `stop ${transports[0]}`);
        const sara = socketIo(leaving.baseUrl, token, { transports, reconnection: false });
        const omar = track(new LockingSocket(staying.baseUrl, await login(staying.baseUrl, `omar-${user}`, 'Omar')));
        const welcome = await sara.welcome;
        await omar.welcome;
        const grant = await sara.socket.emitWithAck('lock-configurator', { configuratorId });
        assert.equal(grant.event, 'lock-acquired');
        await omar.request('watch', { configuratorId });

        const stopped = leaving.stop(); // SIGTERM; it exits once Sara resumed elsewhere
        // A parked long-poll is answered with the close packet ('transport close'); a poll that comes after
        // the close finds the session gone ('transport error'). Either is a lost transport.
        assert.ok(['transport close', 'transport error'].includes(await sara.log.waitFor('disconnect')),
          'a lost transport, after which a client reconnects by itself');
        const again = track(socketIo(staying.baseUrl, await login(staying.baseUrl, user, 'Sara'), { transports }));
        await again.welcome;
        const resumed = await again.socket.emitWithAck('resume', { resumeToken: welcome.resumeToken });
        assert.equal(resumed.event, 'resumed', JSON.stringify(resumed));
        assert.deepEqual(resumed.data.locks.map((lock) => lock.token), [grant.data.lock.token], 'the same grant');
        await stopped;

        assert.equal(omar.log.events.filter((e) => e.event === 'lock-released').length, 0,
          'the page was never free');
        assert.equal((await omar.request('lock-configurator', { configuratorId })).data.code, 'LOCKED');
      });
  }
});
