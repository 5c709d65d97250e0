// Markers that a server-side window is over, so that a test waits for a condition, never for a
// fixed time. To see that nothing happens when a window ends (a socket's grace period, a take-over's
// consent window), a test opens the same window for sockets of its own, after the one it watches,
// and waits until the server closes that one: the watched window has ended by then too.

import assert from 'node:assert/strict';
import { LockingSocket, createConfigurator, login } from './socketio-clients.js';

const WAIT_MS = 30_000;
let made = 0;

/** A /locking socket of a user of its own, after its welcome. */
async function connect(baseUrl, role) {
  made += 1;
  const name = `${role} ${process.pid}-${made}`;
  const token = await login(baseUrl, `demo-${role.toLowerCase()}-${process.pid}-${made}`, name);
  const socket = new LockingSocket(baseUrl, token);
  await socket.welcome;
  return { socket, token };
}

/**
 * Holds the variables of a configurator of its own (`configuratorId`) on `holder`, watched by `watcher`.
 * @returns {Promise<{holder: LockingSocket, watcher: LockingSocket, resource: object}>}
 */
async function heldVariables(baseUrl) {
  const holder = await connect(baseUrl, 'Sentinel');
  const configuratorId = await createConfigurator(baseUrl, holder.token, `Sentinel ${made}`);
  const watcher = await connect(baseUrl, 'Watcher');
  const watched = await watcher.socket.request('watch', { configuratorId });
  assert.equal(watched.event, 'lock-updated', `the sentinel's watcher watches: ${JSON.stringify(watched)}`);
  const locked = await holder.socket.request('lock-variables', { configuratorId });
  assert.equal(locked.event, 'lock-acquired', `the sentinel holds its lock: ${JSON.stringify(locked)}`);
  return { holder: holder.socket, watcher: watcher.socket, resource: locked.data.lock.resource };
}

/**
 * A lock whose socket a test ends after a socket it watches ended the same way:
 * `end('page-gone')` closes it with 1001 (the reload grace), `end('drop')` without a close frame (the
 * grace period). Either resolves once the server released the sentinel's lock, so once the grace of
 * every socket that ended before it is over.
 */
export async function graceSentinel(baseUrl) {
  const { holder, watcher, resource } = await heldVariables(baseUrl);
  return {
    /** @param {'page-gone' | 'drop'} how */
    async end(how) {
      const from = watcher.log.size;
      const endedAt = Date.now();
      if (how === 'drop') {
        holder.ws.terminate();
      } else {
        holder.ws.close(1001);
      }
      await watcher.log.waitFor('lock-released', (data) => data.resource.configuratorId === resource.configuratorId,
        { from, timeout: WAIT_MS });
      watcher.close();
      return Date.now() - endedAt;
    },
  };
}

/**
 * A take-over request nobody answers, asked for after one a test watches: `askAndWaitOut()` resolves
 * when the server handed the sentinel's page over at its deadline, so once the consent window of every
 * request made before it is over.
 */
export async function consentSentinel(baseUrl) {
  const { holder, watcher: asker, resource } = await heldVariables(baseUrl);
  return {
    async askAndWaitOut() {
      const from = asker.log.size;
      const asked = await asker.request('request-takeover', { resource });
      assert.equal(asked.event, 'takeover-pending', `the sentinel's request stands: ${JSON.stringify(asked)}`);
      await asker.log.waitFor('takeover-granted', () => true, { from, timeout: WAIT_MS });
      asker.close();
      holder.close();
    },
  };
}
