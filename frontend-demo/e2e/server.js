// Starts the editlock server from the built jar for the end-to-end tests, and stops it.
// An embedded Redis (quarkus.redis.hosts is not set; editlock.embedded-redis.enabled asks for it).
// EDITLOCK_E2E_URL=http://host:port uses a server that is already running instead.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const JAR = process.env.EDITLOCK_E2E_JAR || path.join(REPO_ROOT, 'target', 'quarkus-app', 'quarkus-run.jar');
const READY_TIMEOUT_MS = 90_000;

/** @returns {Promise<number>} a port nobody listens on right now */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(baseUrl, child) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) {
      throw new Error(`the server exited with ${child.exitCode} before it was ready`);
    }
    try {
      const response = await fetch(`${baseUrl}/q/health/ready`);
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server at ${baseUrl} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * A suite's `skip` when it needs a server of its own (settings of its own, several nodes, a restart or a stop) and
 * the tests run against a server already running (EDITLOCK_E2E_URL): that one has its own settings, and stays.
 */
export const OWN_SERVER_ONLY = process.env.EDITLOCK_E2E_URL
  ? 'needs a server of its own (its settings, nodes, restarts): not run against EDITLOCK_E2E_URL'
  : false;

/**
 * A `redis-server` of the test's own (the server's embedded one stops with it): for a server that restarts and
 * finds its locks again, or for several nodes. Pass `url` as `quarkus.redis.hosts`.
 * @returns {Promise<{url: string, stop: () => void}>}
 */
export async function startRedis() {
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' });
  return { url: `redis://127.0.0.1:${port}`, stop: () => { redis.kill('SIGTERM'); } };
}

/**
 * @param {Record<string, string>} [settings] more server settings (system properties), e.g. a short consent window
 * @returns {Promise<{baseUrl: string, stop: () => Promise<void>, restart: () => Promise<void>}>} `restart()` stops the
 *   server and starts it again on the same port with the same settings: with demo login and no key configured, with a
 *   new signing key (docs/configuration.md); its Redis is the same one only if `quarkus.redis.hosts` is among them
 */
export async function startServer(settings = {}) {
  if (process.env.EDITLOCK_E2E_URL) {
    if (Object.keys(settings).length > 0) {
      throw new Error(`a server given by EDITLOCK_E2E_URL cannot take settings: ${Object.keys(settings).join(', ')}`);
    }
    const baseUrl = process.env.EDITLOCK_E2E_URL.replace(/\/$/, '');
    await waitUntilReady(baseUrl, null);
    return { baseUrl, stop: async () => {}, restart: async () => { throw new Error('cannot restart a server given by EDITLOCK_E2E_URL'); } };
  }
  if (!fs.existsSync(JAR)) {
    throw new Error(`${JAR} does not exist: build it first (./mvnw package -DskipTests)`);
  }
  const port = await freePort();
  const logDir = path.join(REPO_ROOT, 'target');
  fs.mkdirSync(logDir, { recursive: true });
  // One log per server: test files run side by side, and some start several nodes.
  const logName = `e2e-server-${port}.log`;
  const log = fs.openSync(path.join(logDir, logName), 'w');
  const baseUrl = `http://127.0.0.1:${port}`;
  const launch = async () => {
    const started = spawn('java', [
      `-Dquarkus.http.port=${port}`,
      '-Dquarkus.http.host=127.0.0.1',
      '-Deditlock.demo-login.enabled=true',
      '-Deditlock.embedded-redis.enabled=true',
      ...Object.entries(settings).map(([key, value]) => `-D${key}=${value}`),
      '-jar', JAR,
    ], { cwd: REPO_ROOT, stdio: ['ignore', log, log] });
    try {
      await waitUntilReady(baseUrl, started);
    } catch (failure) {
      started.kill('SIGKILL');
      throw new Error(`${failure.message} (see target/${logName})`, { cause: failure });
    }
    return started;
  };
  let child = await launch();
  const halt = async () => {
    if (child.exitCode !== null) {
      return;
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM'); // a clean stop also stops the embedded Redis
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  };
  const stop = async () => {
    await halt();
    fs.closeSync(log);
  };
  const restart = async () => {
    await halt();
    child = await launch();
  };
  return { baseUrl, stop, restart };
}
