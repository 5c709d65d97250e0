// Clients for the Socket.IO end-to-end tests: the real socket.io-client, a /locking WebSocket
// beside it, and the demo login. Every socket records the events it receives, so that a test can
// wait for one.

import { io } from 'socket.io-client';
import WebSocket from 'ws';

const WAIT_MS = 15_000;

export async function login(baseUrl, userId, name = userId) {
  const response = await fetch(`${baseUrl}/api/auth/demo-login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userId, name, roles: [] }),
  });
  if (!response.ok) {
    throw new Error(`demo login answered ${response.status}`);
  }
  return (await response.json()).token;
}

export async function createConfigurator(baseUrl, token, name) {
  const response = await fetch(`${baseUrl}/api/configurators`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201) {
    throw new Error(`creating a configurator answered ${response.status}`);
  }
  return (await response.json()).id;
}

/** Events in the order they came, and a way to wait for one that has not come yet or has. */
class EventLog {
  constructor() {
    this.events = [];
    this.waiters = [];
  }

  add(event, data) {
    this.events.push({ event, data });
    this.waiters = this.waiters.filter((waiter) => !waiter.offer(event, data));
  }

  /** Resolves with the data of the first event `name` after index `from` whose data passes `test`. */
  waitFor(name, test = () => true, { from = 0, timeout = WAIT_MS } = {}) {
    const seen = this.events.slice(from).find((entry) => entry.event === name && test(entry.data));
    if (seen) {
      return Promise.resolve(seen.data);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${name} within ${timeout} ms; got ${JSON.stringify(
        this.events.map((entry) => entry.event))}`)), timeout);
      this.waiters.push({
        offer: (event, data) => {
          if (event !== name || !test(data)) {
            return false;
          }
          clearTimeout(timer);
          resolve(data);
          return true;
        },
      });
    });
  }

  get size() {
    return this.events.length;
  }
}

/**
 * A Socket.IO client of the /locking namespace, as a seed-style front end makes it.
 * @returns {{socket: import('socket.io-client').Socket, log: EventLog, welcome: Promise<object>}}
 */
export function socketIo(baseUrl, token, options = {}) {
  const socket = io(`${baseUrl}/locking`, { auth: token === undefined ? {} : { token }, forceNew: true, ...options });
  const log = new EventLog();
  socket.onAny((event, data) => log.add(event, data));
  socket.on('connect', () => log.add('connect', null));
  socket.on('disconnect', (reason) => log.add('disconnect', reason));
  socket.on('connect_error', (error) => log.add('connect_error', { message: error.message, data: error.data }));
  return { socket, log, get welcome() { return log.waitFor('welcome'); } };
}

/** A /locking WebSocket: request() resolves with the reply carrying its ref. */
export class LockingSocket {
  constructor(baseUrl, token) {
    this.log = new EventLog();
    this.replies = new Map();
    this.nextRef = 1;
    this.ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/locking?access_token=${encodeURIComponent(token)}`);
    this.ws.on('message', (text) => {
      const frame = JSON.parse(text.toString());
      if (frame.ref && this.replies.has(frame.ref)) {
        this.replies.get(frame.ref)(frame);
        this.replies.delete(frame.ref);
      }
      this.log.add(frame.event, frame.data);
    });
  }

  get welcome() {
    return this.log.waitFor('welcome');
  }

  request(event, data) {
    const ref = String(this.nextRef++);
    const reply = new Promise((resolve) => this.replies.set(ref, resolve));
    this.ws.send(JSON.stringify({ event, data, ref }));
    return reply;
  }

  close() {
    this.ws.close(1000);
  }
}

/** Polls until `check` returns something truthy. */
export async function eventually(check, timeout = WAIT_MS) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
