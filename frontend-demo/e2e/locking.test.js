// End-to-end: two people, Sara and Omar, each in their own Chromium, editing one configurator
// through the demo UI served by the real server (built jar, embedded Redis).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer } from './server.js';
import { User, clearScreenshots, screenshot, waitForStatus } from './browser.js';
import { graceSentinel } from './sentinels.js';
import { eventually, login } from './socketio-clients.js';

const FRIENDLY_REST = 'You can view this page. It will become editable when they\u2019re done.';

/** The open page's lock status: opening, editing, blocked, lost, error, missing. */
function treeRow(page, itemName) {
  return page.locator(`[data-testid=tree-item][data-item-name="${itemName}"]`);
}

async function bannerText(page) {
  return (await page.locator('[data-testid=lock-banner]').textContent()).replace(/\s+/g, ' ').trim();
}

async function addItem(page, name, parentName) {
  await page.fill('[data-field="new-item:name"]', name);
  if (parentName) {
    await page.selectOption('[data-field="new-item:parent"]', { label: parentName });
  }
  await page.click('[data-testid=add-item] button[type=submit]');
  await treeRow(page, name).waitFor();
}

async function addEntry(page, text) {
  await page.fill('[data-testid=add-entry] input', text);
  await page.click('[data-testid=add-entry] button[type=submit]');
}

/** An entry row showing `text`: as text on a read-only page, as an input's value on an editable one. */
function entry(page, text) {
  const rows = page.locator('[data-testid=entry]');
  return rows.filter({ hasText: text }).or(rows.filter({ has: page.locator(`input[value=${JSON.stringify(text)}]`) }));
}

describe('two people editing one configurator', { timeout: 300_000 }, () => {
  let server;
  let sara;
  let omar;
  let omarLink; // Omar's first tab talks to the server through this pass-through
  let frameFiltersUrl;

  before(async () => {
    clearScreenshots();
    server = await startServer();
    sara = await new User('Sara', server.baseUrl).launch();
    omar = await new User('Omar', server.baseUrl).launch();
    // A pass-through for Omar's socket that can later break the way a bad proxy does: the server
    // sees the connection end, Omar's browser is not told.
    await omar.page.routeWebSocket(/\/locking/, (browserSide) => {
      const serverSide = browserSide.connectToServer();
      const link = { broken: false };
      browserSide.onMessage((message) => { if (!link.broken) serverSide.send(message); });
      serverSide.onMessage((message) => { if (!link.broken) browserSide.send(message); });
      browserSide.onClose((code, reason) => serverSide.close({ code, reason }));
      serverSide.onClose((code, reason) => { if (!link.broken) browserSide.close({ code, reason }); });
      link.breakSilently = () => {
        link.broken = true;
        serverSide.close({ code: 1000, reason: 'proxy went away' });
      };
      omarLink = link;
    });
  });

  after(async () => {
    await Promise.all([sara && sara.close(), omar && omar.close()]);
    if (server) {
      await server.stop();
    }
  });

  it('Sara creates a configurator, builds its item tree and opens the filters of an item', async () => {
    const page = sara.page;
    await sara.signIn();
    await screenshot(page, 'sara-signed-in');
    await page.fill('#new-configurator-name', 'Mountain bike');
    await page.click('button:has-text("New configurator")');
    await waitForStatus(page, 'editing'); // the structure page, under the configurator lock
    await addItem(page, 'Frame');
    await addItem(page, 'Wheels');
    await addItem(page, 'Front wheel', 'Wheels');
    await addItem(page, 'Rear wheel', 'Wheels');
    await screenshot(page, 'sara-builds-the-item-tree');

    await treeRow(page, 'Frame').locator('a.tree-link').click();
    await waitForStatus(page, 'editing');
    await addEntry(page, 'frame.size >= 54');
    await entry(page, 'frame.size >= 54').waitFor();
    frameFiltersUrl = page.url();
    assert.match(frameFiltersUrl, /#\/c\/\d+\/items\/\d+\/filters$/);
    await screenshot(page, 'sara-edits-the-frame-filters');
  });

  it('Omar sees the lock in the tree and gets a read-only page that names Sara', async () => {
    const page = omar.page;
    await omar.signIn();
    await page.click('[data-testid=configurator-card]:has-text("Mountain bike")');
    const chip = treeRow(page, 'Frame').locator('[data-testid=lock-chip]', { hasText: 'Sara \u00b7 Filters' });
    await chip.waitFor();
    await screenshot(page, 'omar-sees-sara-in-the-tree');

    await treeRow(page, 'Frame').locator('a.tree-link').click();
    await waitForStatus(page, 'blocked');
    const text = await bannerText(page);
    assert.equal(await page.locator('[data-testid=lock-banner] svg[data-icon=lock]').count(), 1, 'the banner shows the app\u2019s lock icon');
    assert.ok(text.includes('Currently edited by Sara.'), `the banner names Sara: ${text}`);
    assert.ok(text.includes(FRIENDLY_REST), `the banner says it is temporary: ${text}`);
    assert.equal(await page.locator('[data-testid=add-entry]').count(), 0, 'a read-only page offers no add form');
    assert.equal(await page.locator('[data-testid=entry] input').count(), 0, 'a read-only page has no inputs');
    await entry(page, 'frame.size >= 54').waitFor();
    await screenshot(page, 'omar-reads-the-page-sara-edits');
  });

  it('Omar sees Sara\u2019s saves live while he waits', async () => {
    await addEntry(sara.page, "color != 'neon'");
    // Live means without a reload, not within a time: how fast is bench/'s to say (docs/benchmarks.md).
    await entry(omar.page, "color != 'neon'").waitFor({ timeout: 10_000 });
    await screenshot(omar.page, 'omar-sees-saras-new-filter-live');
  });

  it('Sara closes her tab: Omar\u2019s page becomes editable once the reload grace is over, without a reload', async (t) => {
    // A closed tab looks like a reload to the server (close code 1001): Sara's locks wait the reload
    // grace (3 s) for a page that does not come back, then go.
    await omar.page.evaluate(() => { window.__sameDocument = true; });
    const closedAt = Date.now();
    await sara.page.close();
    await waitForStatus(omar.page, 'editing', 6_000);
    const elapsed = Date.now() - closedAt;
    assert.ok(elapsed < 5_000, `editable after ${elapsed} ms`);
    t.diagnostic(`Omar's page was editable ${elapsed} ms after Sara's tab closed`);
    assert.equal(await omar.page.evaluate(() => window.__sameDocument), true, 'Omar\u2019s page was not reloaded');
    assert.ok((await bannerText(omar.page)).includes('You are editing this page.'));
    assert.ok(await omar.page.locator('[data-testid=add-entry]').isVisible(), 'Omar can add filters now');
    await screenshot(omar.page, 'omar-can-edit-after-sara-left');
  });

  it('a stale save by Omar while Sara holds the page shows the friendly 423 message, not an error', async () => {
    // Omar's connection breaks without his browser noticing; the server frees his lock at once.
    omarLink.breakSilently();
    // Sara comes back (new tab) and takes the page.
    await sara.newTab();
    await sara.page.goto(frameFiltersUrl);
    await waitForStatus(sara.page, 'editing');

    // Omar's page still looks editable: he saves.
    await waitForStatus(omar.page, 'editing', 1_000);
    await addEntry(omar.page, 'wheel.size == 29');
    await waitForStatus(omar.page, 'blocked', 5_000);
    const text = await bannerText(omar.page);
    assert.ok(text.includes('Currently edited by Sara.'), `the 423 names Sara: ${text}`);
    assert.ok(text.includes(FRIENDLY_REST), `the 423 is explained: ${text}`);
    assert.equal(await omar.page.locator('.toast.error').count(), 0, 'no error box');
    await screenshot(omar.page, 'omar-stale-save-refused-friendly-423');
    const [, configuratorId] = frameFiltersUrl.match(/#\/c\/(\d+)\//);
    const reader = await login(server.baseUrl, 'demo-reader', 'Reader');
    const stored = await (await fetch(`${server.baseUrl}/api/configurators/${configuratorId}`, {
      headers: { Authorization: `Bearer ${reader}` },
    })).text();
    assert.ok(!stored.includes('wheel.size == 29'), 'the server did not store the refused filter');
    assert.equal(await entry(sara.page, 'wheel.size == 29').count(), 0, 'the refused filter was not saved');
  });

  it('Sara\u2019s network drops for a few seconds: she keeps her lock (same token), Omar sees no release', async (t) => {
    // Omar watches from a fresh tab (the first one's connection is broken).
    await omar.page.close();
    await omar.newTab();
    await omar.page.goto(frameFiltersUrl);
    await waitForStatus(omar.page, 'blocked');

    const token = await sara.page.getAttribute('[data-testid=page]', 'data-lock-token');
    assert.ok(token, 'Sara holds the page');
    const sentinel = await graceSentinel(server.baseUrl);
    const droppedAt = Date.now();
    // Offline for a few seconds: until three attempts of her client to reconnect have failed.
    const failedAttempts = new Promise((resolve) => {
      let failed = 0;
      const onSocket = (socket) => socket.once('close', () => {
        failed += 1;
        if (failed === 3) {
          sara.page.off('websocket', onSocket);
          resolve();
        }
      });
      sara.page.on('websocket', onSocket);
    });
    await sara.context.setOffline(true);
    await sara.page.locator('[data-testid=connection]', { hasText: 'Reconnecting' }).waitFor({ timeout: 5_000 });
    await screenshot(sara.page, 'sara-offline-reconnecting');
    await failedAttempts;
    await sara.context.setOffline(false);

    await sara.page.locator('[data-testid=connection]', { hasText: 'Live' }).waitFor({ timeout: 20_000 });
    await waitForStatus(sara.page, 'editing', 5_000);
    assert.equal(await sara.page.getAttribute('[data-testid=page]', 'data-lock-token'), token, 'the same grant');
    const recovered = sara.frames.filter((f) => f.dir === 'in' && f.at >= droppedAt && ['resumed', 'lock-acquired'].includes(f.event));
    assert.ok(recovered.length > 0, 'Sara\u2019s client resumed (or re-entered) her lock');
    const resumeFailures = sara.frames.filter((f) => f.at >= droppedAt && f.event === 'error' && f.data.code === 'RESUME_FAILED').length;
    t.diagnostic(`recovered by ${recovered[0].event} after ${recovered[0].at - droppedAt} ms (${resumeFailures} RESUME_FAILED before)`);
    await screenshot(sara.page, 'sara-back-online-still-editing');

    // Her lock still fences her writes: a save goes through.
    await addEntry(sara.page, 'frame.material != "steel"');
    await entry(sara.page, 'frame.material != "steel"').waitFor();
    await entry(omar.page, 'frame.material != "steel"').waitFor({ timeout: 2_000 });

    // Past the grace period of the dropped socket: still no release. A socket dropped after Sara's loses
    // its lock when its own grace period ends; hers is over by then.
    const graceMs = await sentinel.end('drop');
    t.diagnostic(`the grace period of a socket dropped after Sara's ended ${graceMs} ms after its drop`);
    const releases = omar.frames.filter((f) => f.dir === 'in' && f.at >= droppedAt && f.event === 'lock-released');
    assert.deepEqual(releases, [], 'Omar saw no lock-released');
    await waitForStatus(omar.page, 'blocked', 1_000);
    assert.ok((await bannerText(omar.page)).includes('Currently edited by Sara.'));
    await screenshot(omar.page, 'omar-still-sees-sara-editing');
  });

  it('an administrator releases Sara\u2019s lock: her page turns read-only with the reason, Omar\u2019s editable', async () => {
    const login = await fetch(`${server.baseUrl}/api/auth/demo-login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: 'demo-ada', name: 'Ada', roles: ['admin'] }),
    });
    const { token } = await login.json();
    const [, itemId] = frameFiltersUrl.match(/items\/(\d+)\/filters/);
    const response = await fetch(`${server.baseUrl}/api/locks/item:${itemId}:filters`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.ok(response.ok, `the admin release answered ${response.status}`);
    await waitForStatus(sara.page, 'lost', 5_000);
    const text = await bannerText(sara.page);
    assert.ok(text.includes('An administrator released your edit lock.'), `Sara is told why: ${text}`);
    assert.equal(await sara.page.locator('[data-testid=add-entry]').count(), 0, 'Sara\u2019s page is read-only');
    await screenshot(sara.page, 'sara-lock-released-by-an-admin');
    await waitForStatus(omar.page, 'editing', 2_000);
    await screenshot(omar.page, 'omar-takes-over');
  });

  it('Omar goes back to the list of configurators: the page he edited is free again', async () => {
    const [, configuratorId] = frameFiltersUrl.match(/#\/c\/(\d+)\//);
    const reader = await login(server.baseUrl, 'demo-reader', 'Reader');
    const locks = async () => (await (await fetch(`${server.baseUrl}/api/configurators/${configuratorId}/locks`, {
      headers: { Authorization: `Bearer ${reader}` },
    })).json()).map((lock) => lock.ownerUserName);
    assert.deepEqual(await locks(), ['Omar'], 'Omar edits the page');

    await omar.page.click('a.back-link');
    await omar.page.locator('[data-testid=configurator-card]', { hasText: 'Mountain bike' }).waitFor();
    await eventually(async () => (await locks()).length === 0, 5_000);
  });

  it('no page had a script error', () => {
    assert.deepEqual([...(sara.errors || []), ...(omar.errors || [])], []);
  });
});
