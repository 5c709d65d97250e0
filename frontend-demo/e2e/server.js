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
 * @param {Record<string, string>} [settings] more server settings (system properties), e.g. a short consent window
 * @returns {Promise<{baseUrl: string, stop: () => Promise<void>}>}
 */
export async function startServer(settings = {}) {
  if (process.env.EDITLOCK_E2E_URL) {
    const baseUrl = process.env.EDITLOCK_E2E_URL.replace(/\/$/, '');
    await waitUntilReady(baseUrl, null);
    return { baseUrl, stop: async () => {} };
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
  const child = spawn('java', [
    `-Dquarkus.http.port=${port}`,
    '-Dquarkus.http.host=127.0.0.1',
    '-Deditlock.demo-login.enabled=true',
    '-Deditlock.embedded-redis.enabled=true',
    ...Object.entries(settings).map(([key, value]) => `-D${key}=${value}`),
    '-jar', JAR,
  ], { cwd: REPO_ROOT, stdio: ['ignore', log, log] });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(baseUrl, child);
  } catch (failure) {
    child.kill('SIGKILL');
    throw new Error(`${failure.message} (see target/${logName})`, { cause: failure });
  }
  const stop = async () => {
    if (child.exitCode !== null) {
      return;
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM'); // a clean stop also stops the embedded Redis
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
    fs.closeSync(log);
  };
  return { baseUrl, stop };
}
