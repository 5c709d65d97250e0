// End-to-end: a page of a foreign origin, in Chromium, connects with socket.io-client's defaults (long
// polling first, then the upgrade): it must learn that it is refused (`connect_error` FORBIDDEN,
// docs/protocol.md §12) and stop, not see a transport error and retry forever. The foreign origin is
// a second loopback server, so that the browser applies its real cross-origin rules.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT, startServer } from './server.js';
import { User } from './browser.js';
import { login } from './socketio-clients.js';

const CLIENT = path.join(REPO_ROOT, 'frontend-demo', 'node_modules', 'socket.io-client', 'dist', 'socket.io.esm.min.js');

/** A page of its own origin that connects to `target` with the token it is given in its URL. */
function foreignSite() {
  const page = `<!doctype html><meta charset="utf-8"><title>foreign</title>
<script type="module">
  import { io } from '/socket.io.esm.min.js';
  const query = new URLSearchParams(location.search);
  window.__errors = [];
  const socket = io(query.get('target') + '/locking', { auth: { token: query.get('token') }, reconnectionDelay: 100 });
  socket.on('connect', () => { window.__connected = true; });
  socket.on('connect_error', (error) => { window.__errors.push({ message: error.message, code: error.data?.code, active: socket.active }); });
  window.__socket = socket;
</script>`;
  const server = http.createServer((request, response) => {
    if (request.url.startsWith('/socket.io.esm.min.js')) {
      response.writeHead(200, { 'Content-Type': 'text/javascript' });
      response.end(fs.readFileSync(CLIENT));
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end(page);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('Socket.IO from a foreign page', { timeout: 120_000 }, () => {
  let server;
  let site;
  let eve;

  before(async () => {
    server = await startServer();
    site = await foreignSite();
    eve = await new User('Eve', server.baseUrl).launch();
  });

  after(async () => {
    await eve?.close();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve()));
    await server?.stop();
  });

  it('is refused with FORBIDDEN over the default transports, and its client stops', async () => {
    const token = await login(server.baseUrl, 'demo-eve', 'Eve');
    const foreign = `http://127.0.0.1:${site.address().port}`;
    const page = eve.page;
    await page.goto(`${foreign}/?target=${encodeURIComponent(server.baseUrl)}&token=${encodeURIComponent(token)}`);

    await page.waitForFunction(() => window.__errors.length > 0, null, { timeout: 15_000 });
    const [first] = await page.evaluate(() => window.__errors);
    assert.equal(first.message, 'FORBIDDEN', `the refusal, not a transport error: ${JSON.stringify(first)}`);
    assert.equal(first.code, 'FORBIDDEN');
    assert.equal(first.active, false, 'a refused socket.io-client does not reconnect');
    assert.equal(await page.evaluate(() => window.__connected === true), false, 'never connected');
  });
});
