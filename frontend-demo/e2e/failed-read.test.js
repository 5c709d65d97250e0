// End-to-end: one failed read of the open configurator (a 502 from a proxy, a moment offline) leaves the page
// being edited, and what was typed into it, in place; the configurator is read again by itself.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer } from './server.js';
import { configuratorWithItems } from './scene.js';
import { User, screenshot, waitForStatus } from './browser.js';

/** A configurator with one item, made over REST; returns the hash of the item's filters page. */
async function setUp(baseUrl) {
  return (await configuratorWithItems(baseUrl, 'Proxy bike', ['Frame'])).hashes[0];
}

describe('a failed read of the open configurator', { timeout: 120_000 }, () => {
  let server;
  let tom;

  before(async () => {
    server = await startServer();
    tom = await new User('Tom', server.baseUrl).launch();
    await tom.signIn();
  });

  after(async () => {
    await tom?.close();
    await server?.stop();
  });

  it('keeps the page being edited and the unsaved change, says so, and reads the configurator again', async () => {
    const page = tom.page;
    await page.evaluate((hash) => { location.hash = hash; }, await setUp(server.baseUrl));
    await waitForStatus(page, 'editing');
    await page.fill('[data-testid=add-entry] input', 'frame.size >= 54');
    await page.click('[data-testid=add-entry] button[type=submit]');
    await page.locator('[data-testid=entry] input[value="frame.size >= 54"]').waitFor();
    await page.locator('[data-testid=entry] input').first().fill('frame.size >= 56'); // not saved

    // Every read fails until the notice shows: a failed read that a newer one overtook says nothing, rightly,
    // and the save below may be followed by more than one read (its own and the content-changed one).
    let failing = true;
    await page.route(/\/api\/configurators\/\d+$/, (route) => (route.request().method() === 'GET' && failing
      ? route.fulfill({ status: 502, body: 'bad gateway' })
      : route.continue()));
    await page.fill('[data-testid=add-entry] input', 'frame.color != "pink"');
    await page.click('[data-testid=add-entry] button[type=submit]'); // saved; the reads after it get the 502

    const notice = page.locator('[data-testid=view-notice]');
    await notice.waitFor();
    failing = false;
    assert.match(await notice.textContent(), /Could not load the latest version of this configurator\. The server answered 502\. Trying again/);
    await screenshot(page, 'tom-read-failed-once');
    assert.equal(await page.locator('[data-testid=empty-state]').count(), 0, 'no "Not found"');
    await waitForStatus(page, 'editing', 1_000);
    await notice.waitFor({ state: 'detached' }); // read again a second later
    await page.locator('[data-testid=entry] input[value="frame.color != \\"pink\\""]').waitFor();
    assert.equal(await page.locator('[data-testid=entry] input').first().inputValue(), 'frame.size >= 56', 'the unsaved change is kept');
  });
});
