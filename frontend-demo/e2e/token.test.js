// End-to-end: the demo's token in a real Chromium. It travels in Sec-WebSocket-Protocol, not in the
// URL, and a short-lived token is renewed on the open socket before it ends: the socket, and the
// lock it keeps, outlive several tokens.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, OWN_SERVER_ONLY } from './server.js';
import { User, waitForStatus } from './browser.js';

const TOKEN_LIFETIME_S = 20;

describe('the demo keeps its socket past its token', { timeout: 120_000, skip: OWN_SERVER_ONLY }, () => {
  let server;
  let tara;
  const socketUrls = [];

  before(async () => {
    server = await startServer({ 'editlock.demo-login.token-lifetime': `${TOKEN_LIFETIME_S}s` });
    tara = await new User('Tara', server.baseUrl).launch();
    tara.page.on('websocket', (socket) => socketUrls.push(socket.url()));
  });

  after(async () => {
    await tara?.close();
    await server?.stop();
  });

  it('sends the token in the subprotocol, never in the URL', async () => {
    await tara.signIn();
    assert.ok(socketUrls.length >= 1, 'the page opened a socket');
    for (const url of socketUrls) {
      assert.ok(!url.includes('access_token'), `no token in the socket URL (proxies log URLs): ${url}`);
    }
  });

  it('renews the token with reauth and the socket outlives it, keeping its lock', async () => {
    const page = tara.page;
    await page.fill('#new-configurator-name', 'City bike');
    await page.click('button:has-text("New configurator")');
    await waitForStatus(page, 'editing');
    const granted = tara.frames.filter((f) => f.dir === 'in' && f.event === 'lock-acquired');
    assert.ok(granted.length >= 1, 'the configurator lock was granted');
    const welcomes = () => tara.frames.filter((f) => f.dir === 'in' && f.event === 'welcome').length;
    const before = welcomes();
    // Renewed three times: by the third renewal the first two tokens have ended, the socket lives on.
    await tara.framesArrived((f) => f.dir === 'in' && f.event === 'reauthed',
      { count: 3, timeout: TOKEN_LIFETIME_S * 3 * 1000, what: 'reauthed' });
    const reauthed = tara.frames.filter((f) => f.dir === 'in' && f.event === 'reauthed');
    assert.ok(reauthed.length >= 2, `the socket's token was renewed before each one ended: ${JSON.stringify(reauthed)}`);
    assert.equal(welcomes(), before, 'the socket was never closed and reopened (no 4401)');
    await page.locator('[data-testid=connection]', { hasText: 'Live' }).waitFor({ timeout: 2000 });
    await page.locator('[data-testid=page][data-status=editing]').waitFor({ timeout: 2000 });
    const lost = tara.frames.filter((f) => f.dir === 'in' && (f.event === 'lock-lost' || f.event === 'lock-released'));
    assert.deepEqual(lost, [], 'the lock outlived every token, never released');
    assert.deepEqual(tara.errors || [], [], 'no errors in the page');
  });
});
