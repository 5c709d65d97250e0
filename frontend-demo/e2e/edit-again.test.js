// End-to-end: a page that turns editable again never saves an old draft over what someone else saved
// meanwhile.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer } from './server.js';
import { User, screenshot, waitForStatus } from './browser.js';

async function open(page, hash) {
  await page.evaluate((target) => { location.hash = target; }, hash);
}

/** A token of demo login for `userId`. */
async function tokenOf(baseUrl, userId, roles = []) {
  const login = await fetch(`${baseUrl}/api/auth/demo-login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId, name: userId, roles }),
  });
  return (await login.json()).token;
}

/** A configurator with the item Frame and one filter of it, made over REST. */
async function setUp(baseUrl) {
  const token = await tokenOf(baseUrl, 'setup');
  const post = async (url, body) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body),
    });
    assert.ok(response.ok, `POST ${url} answered ${response.status}`);
    return response.json();
  };
  const configurator = await post('/api/configurators', { name: 'Touring bike' });
  const item = await post(`/api/configurators/${configurator.id}/items`, { name: 'Frame' });
  const filter = await post(`/api/items/${item.id}/filters`, { expression: 'frame.size >= 54' });
  return {
    overview: `#/c/${configurator.id}`,
    filters: `#/c/${configurator.id}/items/${item.id}/filters`,
    lock: `item:${item.id}:filters`,
    field: `[data-field="e:filters:${filter.id}:expression"]`,
  };
}

describe('editing again', { timeout: 300_000 }, () => {
  let server;
  let tom;
  let sara;
  let where;

  before(async () => {
    server = await startServer();
    where = await setUp(server.baseUrl);
    tom = await new User('Tom', server.baseUrl).launch();
    sara = await new User('Sara', server.baseUrl).launch();
    await Promise.all([tom.signIn(), sara.signIn()]);
  });

  after(async () => {
    await Promise.all([tom && tom.close(), sara && sara.close()]);
    if (server) {
      await server.stop();
    }
  });

  it('"Edit again" after losing the page shows what Sara saved meanwhile, not Tom\u2019s old draft', async () => {
    await open(tom.page, where.filters);
    await waitForStatus(tom.page, 'editing');
    await tom.page.fill(where.field, 'tom-draft');

    const admin = await tokenOf(server.baseUrl, 'demo-ada', ['admin']);
    const released = await fetch(`${server.baseUrl}/api/locks/${where.lock}`, { method: 'DELETE', headers: { authorization: `Bearer ${admin}` } });
    assert.ok(released.ok, `the admin release answered ${released.status}`);
    await waitForStatus(tom.page, 'lost');

    await open(sara.page, where.filters);
    await waitForStatus(sara.page, 'editing');
    await sara.page.fill(where.field, 'sara-saved');
    const [patched] = await Promise.all([
      sara.page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/api/filters/')),
      sara.page.locator('[data-testid=entry]').filter({ has: sara.page.locator(where.field) }).locator('button.save').click(),
    ]);
    assert.equal(patched.status(), 200, 'Sara saved');
    const saraLeft = tom.framesArrived((f) => f.dir === 'in' && f.event === 'lock-released' && f.data.ownerUserName === 'Sara',
      { what: 'the release of Sara\u2019s lock' });
    await open(sara.page, where.overview);
    await saraLeft;

    await tom.page.click('[data-testid=lock-banner] button:has-text("Edit again")');
    await waitForStatus(tom.page, 'editing');
    assert.equal(await tom.page.inputValue(where.field), 'sara-saved', 'the form shows what Sara saved, not Tom\u2019s draft');
    await tom.page.locator('[data-testid=toast]', { hasText: 'Your unsaved change was dropped' }).waitFor();
    await screenshot(tom.page, 'tom-edits-again-with-saras-save');
  });

  it('no page had a script error', () => {
    assert.deepEqual([...(tom.errors || []), ...(sara.errors || [])], []);
  });
});
