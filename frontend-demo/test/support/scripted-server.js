// What the unit tests of editlock-client.js share: a WebSocket whose server the test plays (frame by
// frame), a client connected to it, and small helpers to wait for a condition and record events.

import { EditlockClient } from '../../editlock-client.js';

/** A WebSocket the test plays the server of. Every socket the client opens is in `FakeSocket.all`. */
export class FakeSocket {
  /** @type {FakeSocket[]} */
  static all = [];

  constructor(url, protocols) {
    this.url = url;
    this.protocols = protocols;
    this.readyState = 0;
    this.sent = [];
    this.closedWith = null;
    FakeSocket.all.push(this);
    queueMicrotask(() => { this.readyState = 1; });
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close(code) {
    this.closedWith = code;
    this.readyState = 3;
  }

  /** The server sends a frame. */
  push(event, data, ref) {
    this.onmessage?.({ data: JSON.stringify(ref === undefined ? { event, data } : { event, data, ref }) });
  }

  /** The connection drops (no close frame). */
  drop() {
    this.closeByServer(1006, '');
  }

  /** The server closes the socket with this code. */
  closeByServer(code, reason) {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }

  /** The server's first frame: the socket is user 7's. */
  welcome(resumeToken, userName = 'Sara') {
    this.readyState = 1;
    this.push('welcome', { socketId: `s${FakeSocket.all.length}`, userId: '7', userName, resumeToken });
  }

  /** Waits for the next frame sent with this event and answers it with `reply(frame)`: `[event, data]`. */
  async answer(event, reply) {
    const frame = await until(() => this.sent.find((f) => f.event === event && !f.answered));
    frame.answered = true;
    const [replyEvent, data] = reply(frame);
    this.push(replyEvent, data, frame.ref);
    return frame;
  }
}

/** Makes FakeSocket the WebSocket of the tests that follow (call in `beforeEach`). */
export function installFakeSockets() {
  FakeSocket.all = [];
  globalThis.WebSocket = FakeSocket;
}

/** Call in `afterEach`. */
export function removeFakeSockets() {
  delete globalThis.WebSocket;
}

/** sessionStorage, as far as the client uses it. */
export class MemoryStorage {
  constructor() { this.values = new Map(); }
  getItem(key) { return this.values.has(key) ? this.values.get(key) : null; }
  setItem(key, value) { this.values.set(key, String(value)); }
  removeItem(key) { this.values.delete(key); }
}

/** The real timer, taken before any test fakes the clock (mock timers replace the global one). */
const realSetTimeout = globalThis.setTimeout;

/**
 * Resolves with what `find` returns once it is truthy; checked every few milliseconds. It keeps its own
 * time while a test fakes the clock (`Date`, `setTimeout`): it polls with the real timer and reads its
 * deadline from `performance.now()`. The deadline only bounds a test that fails: a few app timers run for
 * real (the demo's 3 s retries), and a loaded machine (CI runs these beside the server's test suites)
 * may take longer than they say.
 */
export async function until(find, timeoutMs = 15000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found) return found;
    if (performance.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => realSetTimeout(resolve, 2));
  }
}

/**
 * Resolves once every promise callback already queued, and every one those queue, has run (one turn of
 * the event loop). After a fake clock's `tick`, whatever the fired timers started has then happened:
 * a test can assert that it did not happen without waiting a fixed time.
 */
export function settled() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A promise the test settles: `{promise, resolve}`. */
export function deferred() {
  let resolve;
  const promise = new Promise((settle) => { resolve = settle; });
  return { promise, resolve };
}

/** Records the `detail` of every `type` event of the client. */
export function events(client, type) {
  const seen = [];
  client.addEventListener(type, (event) => seen.push(event.detail));
  return seen;
}

/** Item 5's filters in configurator 12. */
export const FILTERS = { type: 'item-subresource', configuratorId: 12, itemId: 5, page: 'filters' };

/** A lock of FILTERS with its fencing token, held by user 7 (or `owner`: [userId, userName]). */
export function lockOf(token, owner = ['7', 'Sara']) {
  return {
    resource: FILTERS, ownerUserId: owner[0], ownerUserName: owner[1],
    acquiredAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-01T00:00:30Z', token,
  };
}

/**
 * A client connected to the first FakeSocket, after its welcome (`resumeToken`, user 7 named `userName`).
 * Activity and page-hide listening are off.
 */
export async function connected(options = {}, { resumeToken = 'resume-1', userName = 'Sara' } = {}) {
  const client = new EditlockClient({ url: 'ws://test/locking', activityTarget: null, closeOnPageHide: false, ...options });
  const ready = client.connect();
  const socket = await until(() => FakeSocket.all[0]);
  socket.welcome(resumeToken, userName);
  await ready;
  return { client, socket };
}
