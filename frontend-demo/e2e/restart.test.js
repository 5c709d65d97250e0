// End-to-end: the server restarts, and its store loses its data. With demo login and no key configured the
// server makes a new signing key at each start (docs/configuration.md), so it refuses every token it issued
// before. Open tabs get a new demo token for the same user, reconnect and resume their locks; what was typed stays
// in the form. Nobody is signed out. A configurator the store lost is gone from the whole screen.
// The server runs on a Redis of the test's own, which outlives the restart, as a production Redis would.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startRedis, startServer, OWN_SERVER_ONLY } from './server.js';
import { configuratorWithItems } from './scene.js';
import { User, screenshot, waitForStatus } from './browser.js';

/** Long enough for a restart, the token's renewal and the client's back-off between attempts. */
const BACK_WITHIN_MS = 90_000;

/** The sign-in the demo keeps for the browser: `{token, userId, name}`. */
function keptSignIn(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('editlock.demo.session') || 'null')?.auth ?? null);
}

function connection(page, text) {
  return page.locator('[data-testid=connection]', { hasText: text });
}

/** The row of the filter whose input shows `expression`. */
function filterRow(page, expression) {
  return page.locator('[data-testid=entry]').filter({ has: page.locator(`input[value=${JSON.stringify(expression)}]`) });
}

describe('a restart of the server, with a new signing key, and a store that lost its data', { timeout: 300_000, skip: OWN_SERVER_ONLY }, () => {
  let redis;
  let server;
  let sara;
  let tom;

  before(async () => {
    redis = await startRedis();
    server = await startServer({
      'quarkus.redis.hosts': redis.url,
      // A single node that restarts: its clients resume on it when it is back, within the lease.
      'editlock.session.stop-wait': '0s',
      'editlock.lease.ttl': '120s',
      'editlock.lease.renew-interval': '5s', // also how often the server looks whether its store lost its data
    });
    sara = await new User('Sara', server.baseUrl).launch();
    tom = await new User('Tom', server.baseUrl).launch();
    await Promise.all([sara.signIn(), tom.signIn()]);
  });

  after(async () => {
    await Promise.all([sara?.close(), tom?.close()]);
    await server?.stop();
    redis?.stop();
  });

  it('signs the open tabs in again as the same users: Sara keeps her page, its lock and what she typed; Tom sees it live', async () => {
    const [filters] = (await configuratorWithItems(server.baseUrl, 'Restart bike', ['Frame'])).hashes;
    await sara.page.evaluate((hash) => { location.hash = hash; }, filters);
    await waitForStatus(sara.page, 'editing');
    await sara.page.fill('[data-testid=add-entry] input', 'a == 1');
    await sara.page.click('[data-testid=add-entry] button[type=submit]');
    await filterRow(sara.page, 'a == 1').waitFor();
    await filterRow(sara.page, 'a == 1').locator('input').fill('a == 2'); // not saved
    const grant = await sara.page.getAttribute('[data-testid=page]', 'data-lock-token');
    await tom.page.evaluate((hash) => { location.hash = hash; }, filters);
    await waitForStatus(tom.page, 'blocked');
    const before = await keptSignIn(sara.page);

    const restarted = server.restart();
    await connection(sara.page, 'Reconnecting').waitFor({ timeout: 30_000 });
    await restarted;

    await connection(sara.page, 'Live').waitFor({ timeout: BACK_WITHIN_MS });
    await connection(tom.page, 'Live').waitFor({ timeout: BACK_WITHIN_MS });
    await screenshot(sara.page, 'sara-back-after-the-restart');
    const now = await keptSignIn(sara.page);
    assert.notEqual(now.token, before.token, 'a new token, which the restarted server accepts');
    assert.deepEqual({ ...now, token: null }, { ...before, token: null }, 'for the same user');
    await waitForStatus(sara.page, 'editing', 10_000);
    assert.equal(await sara.page.getAttribute('[data-testid=page]', 'data-lock-token'), grant, 'the same grant: resumed');
    assert.equal(await sara.page.locator('[data-testid=entry] input').first().inputValue(), 'a == 2', 'what she typed is kept');
    await waitForStatus(tom.page, 'blocked', 10_000);
    assert.match(await tom.page.locator('[data-testid=lock-banner]').textContent(), /Currently edited by Sara\./);

    await filterRow(sara.page, 'a == 2').locator('button.save').click();
    await sara.page.locator('[data-testid=toast]', { hasText: 'Saved.' }).waitFor();
    await tom.page.locator('[data-testid=entry]', { hasText: 'a == 2' }).or(filterRow(tom.page, 'a == 2')).waitFor();

    await tom.page.reload(); // signed in still: the kept sign-in is the new one
    await connection(tom.page, 'Live').waitFor();
    await waitForStatus(tom.page, 'blocked');
    assert.deepEqual([...(sara.errors || []), ...(tom.errors || [])], [], 'no errors in the pages');
  });

  it('a configurator the store lost is gone from the sidebar too, and Sara, who waited in line, is not told to line up again', async () => {
    const [filters] = (await configuratorWithItems(server.baseUrl, 'Lost bike', ['Pedal'])).hashes;
    await tom.page.evaluate((hash) => { location.hash = hash; }, filters);
    await waitForStatus(tom.page, 'editing');
    await sara.page.evaluate((hash) => { location.hash = hash; }, filters);
    await waitForStatus(sara.page, 'blocked');
    await sara.page.click('[data-testid=wait-for]');
    await sara.page.locator('[data-testid=queue-position]').waitFor();
    await sara.page.locator('[data-testid=tree-item]').first().waitFor();

    execFileSync('redis-cli', ['-u', redis.url, 'FLUSHALL']);

    const leftLine = sara.page.locator('[data-testid=toast]', { hasText: 'You are no longer in line for this page' });
    await leftLine.waitFor({ timeout: 60_000 });
    await sara.page.locator('[data-testid=empty-state]', { hasText: 'Not found' }).waitFor();
    await screenshot(sara.page, 'sara-after-the-store-lost-the-configurator');
    assert.equal(await leftLine.textContent(), 'You are no longer in line for this page: it no longer exists.');
    assert.equal(await sara.page.locator('[data-testid=sidebar] [data-testid=tree-item]').count(), 0, 'no items listed');
    assert.equal(await sara.page.locator('[data-testid=sidebar] .sidebar-heading').textContent(), 'Not found');
  });
});
