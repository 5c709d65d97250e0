// End-to-end: asking the editor of a page for it, and waiting in line (docs/protocol.md §13, §14), each person
// in their own Chromium, through the demo UI served by the real server.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, OWN_SERVER_ONLY } from './server.js';
import { configuratorWithItems } from './scene.js';
import { User, screenshot, waitForStatus } from './browser.js';
import { consentSentinel, graceSentinel } from './sentinels.js';

const CONSENT_SECONDS = 4;

function pageWithStatus(page, status) {
  return page.locator(`[data-testid=page][data-status=${status}]`);
}

async function bannerText(page) {
  return (await page.locator('[data-testid=lock-banner]').textContent()).replace(/\s+/g, ' ').trim();
}

/** A configurator of its own with one item per name, made over REST; returns the hash of each item's filters page. */
async function setUp(baseUrl, items) {
  return (await configuratorWithItems(baseUrl, 'Handover bike', items)).hashes;
}

/** The locks held in the configurator of `hash`, as GET …/locks lists them: `[{resource, ownerUserName}]`. */
async function locksIn(baseUrl, hash) {
  const configuratorId = hash.split('/')[2];
  const login = await fetch(`${baseUrl}/api/auth/demo-login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId: 'setup', name: 'Setup' }),
  });
  const { token } = await login.json();
  const response = await fetch(`${baseUrl}/api/configurators/${configuratorId}/locks`, { headers: { authorization: `Bearer ${token}` } });
  return (await response.json()).map(({ resource, ownerUserName }) => ({ resource, ownerUserName }));
}

/**
 * Goes to `hash`, and returns once the page shown before is gone: a status read right after is the new
 * page's, not the one still on screen until the navigation is drawn.
 */
async function open(user, hash) {
  const before = await user.page.$('[data-testid=page]');
  await user.page.evaluate((target) => { location.hash = target; }, hash);
  if (before) {
    await user.page.waitForFunction((element) => !element.isConnected, before);
    await before.dispose();
  }
}

describe('asking for a page and waiting in line', { timeout: 300_000, skip: OWN_SERVER_ONLY }, () => {
  let server;
  let sara;
  let tom;
  let omar;
  let pages;

  before(async () => {
    server = await startServer({ 'editlock.waiting.consent-window': `${CONSENT_SECONDS}s`, 'editlock.waiting.sweep-interval': '250ms' });
    pages = await setUp(server.baseUrl, ['Frame', 'Fork', 'Saddle', 'Wheel']);
    sara = await new User('Sara', server.baseUrl).launch();
    tom = await new User('Tom', server.baseUrl).launch();
    omar = await new User('Omar', server.baseUrl).launch();
    await Promise.all([sara.signIn(), tom.signIn(), omar.signIn()]);
  });

  after(async () => {
    await Promise.all([sara && sara.close(), tom && tom.close(), omar && omar.close()]);
    if (server) {
      await server.stop();
    }
  });

  it('Tom asks Sara for the page with a message; she hands it over', async () => {
    await open(sara, pages[0]);
    await waitForStatus(sara.page, 'editing');
    await open(tom, pages[0]);
    await waitForStatus(tom.page, 'blocked');
    assert.ok((await bannerText(tom.page)).includes('Ask Sara for this page'));
    await tom.page.fill('[data-testid=takeover-message]', 'Need to fix the frame sizes');
    await tom.page.click('[data-testid=ask-holder]');
    await tom.page.locator('[data-testid=takeover-pending]').waitFor();

    const dialog = sara.page.locator('[data-testid=takeover-dialog]');
    await dialog.waitFor();
    assert.ok((await dialog.textContent()).includes('Tom asks for the page you are editing'));
    assert.equal(await sara.page.locator('[data-testid=takeover-request-message]').textContent(), 'Need to fix the frame sizes');
    const countdown = Number((await sara.page.locator('[data-testid=takeover-countdown]').textContent()).replace(/\D/g, ''));
    assert.ok(countdown > 0 && countdown <= CONSENT_SECONDS, `countdown ${countdown}`);
    await screenshot(sara.page, 'sara-is-asked-for-the-page');
    await sara.page.click('[data-testid=takeover-handover]');

    await waitForStatus(tom.page, 'editing');
    await waitForStatus(sara.page, 'lost');
    assert.ok((await bannerText(sara.page)).includes('You handed this page over to Tom.'), await bannerText(sara.page));
    assert.equal(await dialog.count(), 0);
    await tom.page.locator('[data-testid=toast]', { hasText: 'Sara handed the page over to you.' }).waitFor();
    await screenshot(tom.page, 'tom-got-the-page');
  });

  it('Tom asks again for another page; Sara keeps it', async () => {
    const sentinel = await consentSentinel(server.baseUrl);
    await open(sara, pages[1]);
    await waitForStatus(sara.page, 'editing');
    await open(tom, pages[1]);
    await waitForStatus(tom.page, 'blocked');
    await tom.page.click('[data-testid=ask-holder]');
    await sara.page.locator('[data-testid=takeover-dialog]').waitFor();
    await sara.page.click('[data-testid=takeover-keep]');
    await tom.page.locator('.toast', { hasText: 'Sara keeps editing the page for now.' }).waitFor();
    await tom.page.locator('[data-testid=ask-holder]').waitFor();
    // Past the consent window nothing changes: the refusal ended the request. (A request asked for
    // after Tom's passes at its deadline: Tom's deadline is over by then.)
    await sentinel.askAndWaitOut();
    assert.equal(await pageWithStatus(sara.page, 'editing').count(), 1);
    assert.equal(await pageWithStatus(tom.page, 'blocked').count(), 1);
  });

  it('Sara does not answer: the page passes to Tom when the countdown ends', async () => {
    await open(sara, pages[2]);
    await waitForStatus(sara.page, 'editing');
    await open(tom, pages[2]);
    await waitForStatus(tom.page, 'blocked');
    const askedAt = Date.now();
    await tom.page.click('[data-testid=ask-holder]');
    await sara.page.locator('[data-testid=takeover-dialog]').waitFor();
    await waitForStatus(tom.page, 'editing', (CONSENT_SECONDS + 5) * 1000);
    const took = Date.now() - askedAt;
    assert.ok(took >= (CONSENT_SECONDS - 1) * 1000, `not before the deadline (${took} ms)`);
    await waitForStatus(sara.page, 'lost');
    assert.equal(await sara.page.locator('[data-testid=takeover-dialog]').count(), 0, 'the dialog goes with the page');
    const told = await bannerText(sara.page);
    assert.ok(!told.includes('You handed this page over'), `Sara did not hand it over: ${told}`);
    assert.ok(told.includes('Tom asked for this page; it passed to them.'), `Sara is told who has it, and why: ${told}`);
    await tom.page.locator('[data-testid=toast]', { hasText: 'Sara did not answer in time, so the page passed to you.' }).waitFor();
  });

  it('Sara leaves the page while Tom\u2019s request stands: it is his, and he is not told she handed it over', async () => {
    const [saddle, bell] = await setUp(server.baseUrl, ['Saddle', 'Bell']); // a configurator of its own
    await open(sara, saddle);
    await waitForStatus(sara.page, 'editing');
    await open(tom, saddle);
    await waitForStatus(tom.page, 'blocked');
    await tom.page.click('[data-testid=ask-holder]');
    await tom.page.locator('[data-testid=takeover-pending]').waitFor();
    await sara.page.locator('[data-testid=takeover-dialog]').waitFor();

    await open(sara, bell); // her page is freed, and the request is served with it
    await waitForStatus(tom.page, 'editing');
    await tom.page.locator('[data-testid=toast]', { hasText: 'The page is yours now.' }).waitFor();
    assert.equal(await tom.page.locator('[data-testid=toast]', { hasText: 'handed' }).count(), 0);
  });

  it('Tom edits one item page; on the structure, Sara is told which page is in the way, not that Tom edits the structure', async () => {
    const [wheelFilters] = await setUp(server.baseUrl, ['Wheel']); // a configurator of its own
    await open(tom, wheelFilters.replace(/filters$/, 'dependencies'));
    await waitForStatus(tom.page, 'editing');
    await open(sara, wheelFilters.replace(/\/items\/.*$/, '/structure'));
    await waitForStatus(sara.page, 'blocked');
    const told = await bannerText(sara.page);
    assert.ok(told.includes('Tom is editing Wheel \u203a Dependencies. The structure can be edited when no one edits a page of this configurator.'), told);
    assert.ok(!told.includes('Currently edited by Tom'), told);
  });

  it('two waiters are served in order, each page turning editable by itself', async () => {
    await open(sara, pages[3]);
    await waitForStatus(sara.page, 'editing');
    await open(tom, pages[3]);
    await waitForStatus(tom.page, 'blocked');
    await tom.page.click('[data-testid=wait-for]');
    await tom.page.locator('[data-testid=queue-position]', { hasText: 'You are next.' }).waitFor();
    await open(omar, pages[3]);
    await waitForStatus(omar.page, 'blocked');
    await omar.page.click('[data-testid=wait-for]');
    await omar.page.locator('[data-testid=queue-position]', { hasText: 'You are number 2 in line.' }).waitFor();
    await screenshot(omar.page, 'omar-waits-second-in-line');

    await open(sara, pages[0]); // Sara leaves the page
    await waitForStatus(tom.page, 'editing');
    await omar.page.locator('[data-testid=queue-position]', { hasText: 'You are next.' }).waitFor();
    assert.equal(await pageWithStatus(omar.page, 'blocked').count(), 1);

    await open(tom, pages[0]); // Tom is done
    await waitForStatus(omar.page, 'editing');
    const served = omar.frames.filter((f) => f.dir === 'in' && f.event === 'lock-acquired' && f.data.queued);
    assert.equal(served.length, 1);
  });

  it('Tom edits the structure; Sara, on an item page, asks him and gets that page', async () => {
    const [filters] = await setUp(server.baseUrl, ['Chain']); // a configurator of its own: nobody else holds anything in it
    const structure = filters.replace(/\/items\/.*$/, '/structure');
    await open(tom, structure);
    await waitForStatus(tom.page, 'editing');
    await open(sara, filters);
    await waitForStatus(sara.page, 'blocked');
    assert.ok((await bannerText(sara.page)).includes('Tom is editing the structure of this configurator.'));
    await sara.page.fill('[data-testid=takeover-message]', 'Only the chain filters');
    await sara.page.click('[data-testid=ask-holder]');
    await sara.page.locator('[data-testid=takeover-pending]', { hasText: 'Asked Tom' }).waitFor();

    const dialog = tom.page.locator('[data-testid=takeover-dialog]');
    await dialog.waitFor();
    assert.equal(await tom.page.locator('[data-testid=takeover-request-message]').textContent(), 'Only the chain filters');
    await tom.page.click('[data-testid=takeover-handover]');

    await waitForStatus(sara.page, 'editing');
    await waitForStatus(tom.page, 'lost');
    // Sara ends up with the page she opened, and not with the whole configurator on top of it.
    await sara.framesArrived((f) => f.dir === 'in' && f.event === 'lock-released' && f.data.resource.type === 'configurator'
      && f.data.reason === 'unlock', { what: 'the configurator lock given back' });
    const filtersPage = { type: 'item-subresource', itemId: Number(filters.split('/')[4]), page: 'filters' };
    assert.deepEqual(await locksIn(server.baseUrl, filters),
      [{ resource: { ...filtersPage, configuratorId: Number(filters.split('/')[2]) }, ownerUserName: 'Sara' }]);
    await screenshot(sara.page, 'sara-got-the-page-from-toms-structure');
  });

  it('Sara asks Tom for his structure from an item page and moves on; when he hands it over, she gives it back', async () => {
    const [filters] = await setUp(server.baseUrl, ['Bell']); // a configurator of its own
    const overview = filters.replace(/\/items\/.*$/, '');
    const structure = `${overview}/structure`;
    const configuratorId = Number(filters.split('/')[2]);
    await open(tom, structure);
    await waitForStatus(tom.page, 'editing');
    await open(sara, filters);
    await waitForStatus(sara.page, 'blocked');
    await sara.page.click('[data-testid=ask-holder]');
    await sara.page.locator('[data-testid=takeover-pending]', { hasText: 'Asked Tom' }).waitFor();
    await open(sara, overview); // Sara no longer needs the page; her request stands (it cannot be withdrawn)
    await sara.page.locator('[data-testid=page]').waitFor({ state: 'detached' });

    await tom.page.locator('[data-testid=takeover-dialog]').waitFor();
    await tom.page.click('[data-testid=takeover-handover]');
    await waitForStatus(tom.page, 'lost');
    // Sara's unlock of this configurator's lock, answered (the test before saw her give back another one).
    const givenBack = (f) => f.dir === 'in' && f.event === 'lock-released' && f.data.reason === 'unlock'
      && f.data.resource.type === 'configurator' && f.data.resource.configuratorId === configuratorId;
    await sara.framesArrived(givenBack, { what: 'the structure given back by Sara' });
    assert.deepEqual(await locksIn(server.baseUrl, filters), [], 'nobody holds anything in the configurator');

    // Tom, and anyone, can edit the structure again.
    await tom.page.getByRole('button', { name: 'Edit again' }).click();
    await waitForStatus(tom.page, 'editing');
    await screenshot(tom.page, 'tom-edits-the-structure-again-after-sara-moved-on');
  });

  it('Sara asks Tom for his structure from an item page and reloads; the request shows again, and his yes serves that page', async () => {
    const [filters] = await setUp(server.baseUrl, ['Horn']); // a configurator of its own
    const structure = filters.replace(/\/items\/.*$/, '/structure');
    await open(tom, structure);
    await waitForStatus(tom.page, 'editing');
    await open(sara, filters);
    await waitForStatus(sara.page, 'blocked');
    await sara.page.click('[data-testid=ask-holder]');
    await sara.page.locator('[data-testid=takeover-pending]', { hasText: 'Asked Tom' }).waitFor();

    await sara.page.reload();
    await waitForStatus(sara.page, 'blocked');
    await sara.page.locator('[data-testid=takeover-pending]', { hasText: 'Asked Tom' }).waitFor();
    assert.equal(await sara.page.locator('[data-testid=ask-holder]').count(), 0, 'not offered to ask again');

    await tom.page.locator('[data-testid=takeover-dialog]').waitFor();
    await tom.page.click('[data-testid=takeover-handover]');
    await waitForStatus(sara.page, 'editing');
    const filtersPage = { type: 'item-subresource', itemId: Number(filters.split('/')[4]), page: 'filters' };
    assert.deepEqual(await locksIn(server.baseUrl, filters),
      [{ resource: { ...filtersPage, configuratorId: Number(filters.split('/')[2]) }, ownerUserName: 'Sara' }],
      'Sara edits the page she asked from, and gave the structure back');
    await screenshot(sara.page, 'sara-reloaded-and-got-the-page-from-toms-structure');
  });

  it('Tom is offline past the grace period and Omar, next in line, gets the page: Tom is told so, before and after he is back', async () => {
    const [filters] = await setUp(server.baseUrl, ['Lamp']); // a configurator of its own
    await open(tom, filters);
    await waitForStatus(tom.page, 'editing');
    await open(omar, filters);
    await waitForStatus(omar.page, 'blocked');
    await omar.page.click('[data-testid=wait-for]');
    await omar.page.locator('[data-testid=queue-position]').waitFor();

    await tom.context.setOffline(true);
    // Past the grace period the banner no longer says the lock is kept.
    await tom.page.locator('[data-testid=lock-banner]', { hasText: 'Your edit lock may have been released' }).waitFor({ timeout: 20_000 });
    await waitForStatus(omar.page, 'editing', 30_000);
    await screenshot(tom.page, 'tom-offline-past-the-grace-period');

    await tom.context.setOffline(false);
    await waitForStatus(tom.page, 'blocked', 30_000);
    await tom.page.locator('[data-testid=connection]', { hasText: 'Live' }).waitFor({ timeout: 30_000 });
    const told = await bannerText(tom.page);
    assert.ok(told.includes('Your connection was lost for too long, so the page was released.'), told);
    assert.ok(told.includes('Currently edited by Omar'), told);
    assert.ok(told.includes('Anything you had not saved is kept in this tab'), told);
    await screenshot(tom.page, 'tom-back-online-told-he-lost-the-page');
  });

  it('Tom waits in two tabs; when he stops waiting in one, the other stops showing his place and says why', async () => {
    const [bell] = await setUp(server.baseUrl, ['Bell']); // a configurator of its own
    await open(sara, bell);
    await waitForStatus(sara.page, 'editing');
    const firstTab = tom.page;
    await open(tom, bell);
    await waitForStatus(firstTab, 'blocked');
    await firstTab.click('[data-testid=wait-for]');
    await firstTab.locator('[data-testid=queue-position]', { hasText: 'You are next.' }).waitFor();
    const secondTab = await tom.newTab();
    try {
      await open(tom, bell);
      await waitForStatus(secondTab, 'blocked');
      await secondTab.click('[data-testid=wait-for]');
      await secondTab.locator('[data-testid=queue-position]', { hasText: 'You are next.' }).waitFor(); // one place, his

      await secondTab.click('[data-testid=stop-waiting]');
      await firstTab.locator('[data-testid=toast]', { hasText: 'You are no longer in line for this page: you stopped waiting in another window.' })
        .waitFor();
      assert.equal(await firstTab.locator('[data-testid=queue-position]').count(), 0, 'the first tab shows no place in line');
    } finally {
      await secondTab.close();
      tom.page = firstTab;
    }
  });

  it('Tom waits in one tab; his other tab on the page asks for the lock too, and keeps it when the waiting tab closes', async () => {
    const [horn, grip] = await setUp(server.baseUrl, ['Horn', 'Grip']); // a configurator of its own
    await open(sara, horn);
    await waitForStatus(sara.page, 'editing');
    const firstTab = tom.page;
    await open(tom, horn);
    await waitForStatus(firstTab, 'blocked');
    const waitingTab = await tom.newTab();
    try {
      await open(tom, horn);
      await waitForStatus(waitingTab, 'blocked');
      await waitingTab.click('[data-testid=wait-for]');
      await waitingTab.locator('[data-testid=queue-position]', { hasText: 'You are next.' }).waitFor();

      await open(sara, grip); // Sara is done: the line serves Tom, and only the waiting tab's socket keeps the grant
      await waitForStatus(waitingTab, 'editing');
      await waitForStatus(firstTab, 'editing');
      const token = await waitingTab.getAttribute('[data-testid=page]', 'data-lock-token');
      assert.equal(await firstTab.getAttribute('[data-testid=page]', 'data-lock-token'), token, 'the same grant in both tabs');

      const sentinel = await graceSentinel(server.baseUrl);
      await waitingTab.close();
      await sentinel.end('drop'); // past the closed tab's grace, however its socket went
      assert.equal(await pageWithStatus(firstTab, 'editing').count(), 1, `the other tab still edits: ${await bannerText(firstTab)}`);
      const hornId = Number(horn.split('/')[4]);
      const locks = (await locksIn(server.baseUrl, horn)).filter((lock) => lock.resource.itemId === hornId);
      assert.deepEqual(locks.map((lock) => lock.ownerUserName), ['Tom'], 'Tom still holds the page');
    } finally {
      if (!waitingTab.isClosed()) {
        await waitingTab.close();
      }
      tom.page = firstTab;
    }
  });

  it('no page had a script error', () => {
    for (const user of [sara, tom, omar]) {
      assert.deepEqual(user.errors || [], [], `${user.name}'s page threw`);
    }
  });
});
