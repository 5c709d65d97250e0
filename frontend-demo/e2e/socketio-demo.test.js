// End-to-end: the demo UI over Socket.IO (`?transport=socketio`, socket.io-client's ESM build served
// by the app) in one Chromium, and over /locking in another: they block each other and see each
// other's changes live.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer } from './server.js';
import { User, screenshot } from './browser.js';

function pageWithStatus(page, status) {
  return page.locator(`[data-testid=page][data-status=${status}]`);
}

function treeRow(page, itemName) {
  return page.locator(`[data-testid=tree-item][data-item-name="${itemName}"]`);
}

async function bannerText(page) {
  return (await page.locator('[data-testid=lock-banner]').textContent()).replace(/\s+/g, ' ').trim();
}

describe('the demo over Socket.IO', { timeout: 300_000 }, () => {
  let server;
  let sara;
  let omar;
  const saraSockets = [];

  before(async () => {
    server = await startServer();
    sara = await new User('Sara', server.baseUrl).launch();
    omar = await new User('Omar', server.baseUrl).launch();
    sara.page.on('websocket', (socket) => saraSockets.push(socket.url()));
  });

  after(async () => {
    await Promise.all([sara && sara.close(), omar && omar.close()]);
    await server?.stop();
  });

  it('Sara signs in with ?transport=socketio: her client talks Socket.IO, not /locking', async () => {
    const page = sara.page;
    await page.goto(`${server.baseUrl}/?transport=socketio`);
    await page.fill('#signin-name', 'Sara');
    await page.click('button[type=submit]');
    await page.locator('[data-testid=connection]', { hasText: 'Live' }).waitFor();
    assert.ok(saraSockets.some((url) => url.includes('/socket.io/?EIO=4&transport=websocket')), `upgraded: ${saraSockets}`);
    assert.ok(!saraSockets.some((url) => url.includes('/locking')), `no /locking socket: ${saraSockets}`);

    await page.fill('#new-configurator-name', 'Gravel bike');
    await page.click('button:has-text("New configurator")');
    await pageWithStatus(page, 'editing').waitFor();
    await page.fill('[data-field="new-item:name"]', 'Frame');
    await page.click('[data-testid=add-item] button[type=submit]');
    await treeRow(page, 'Frame').waitFor();
    await treeRow(page, 'Frame').locator('a.tree-link').click();
    await pageWithStatus(page, 'editing').waitFor();
    await screenshot(page, 'socketio-sara-edits-the-frame-filters');
  });

  it('Omar, on /locking, sees Sara\u2019s lock and gets a read-only page; her saves reach him live', async () => {
    const page = omar.page;
    await omar.signIn();
    await page.click('[data-testid=configurator-card]:has-text("Gravel bike")');
    await treeRow(page, 'Frame').locator('[data-testid=lock-chip]', { hasText: 'Sara \u00b7 Filters' }).waitFor();
    await treeRow(page, 'Frame').locator('a.tree-link').click();
    await pageWithStatus(page, 'blocked').waitFor();
    assert.ok((await bannerText(page)).includes('Currently edited by Sara.'));

    await sara.page.fill('[data-testid=add-entry] input', 'frame.size >= 52');
    await sara.page.click('[data-testid=add-entry] button[type=submit]');
    await page.locator('[data-testid=entry]', { hasText: 'frame.size >= 52' }).waitFor({ timeout: 5_000 });
    await screenshot(page, 'socketio-omar-sees-saras-save');
  });

  it('Sara closes her tab: a lost transport, so Omar can edit once the grace period is over', async () => {
    const closedAt = Date.now();
    await sara.page.close({ runBeforeUnload: true });
    await pageWithStatus(omar.page, 'editing').waitFor({ timeout: 20_000 });
    const elapsed = Date.now() - closedAt;
    assert.ok(elapsed < 15_000, `editable ${elapsed} ms after the tab closed (grace period 10 s)`);
    await screenshot(omar.page, 'socketio-omar-edits-after-sara-left');
  });
});
