// End-to-end: asking with the keyboard (Enter in the message), the holder's take-over panel (docs/protocol.md §13:
// an active holder can always refuse) used from the keyboard, and its advice, "Save what you are doing, then hand
// it over", followed while it is shown. Sara holds a page, Tom asks her for it; each in their own Chromium.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, OWN_SERVER_ONLY } from './server.js';
import { configuratorWithItems } from './scene.js';
import { User, screenshot, waitForStatus } from './browser.js';

/** A configurator with one item per name, made over REST; returns the hash of each item's filters page, and the API login. */
function setUp(baseUrl, items) {
  return configuratorWithItems(baseUrl, 'Keyboard bike', items);
}

/** The filters saved for the item of `hash`, as the server has them. */
async function savedFilters(baseUrl, token, hash) {
  const [, , configuratorId, , itemId] = hash.split('/');
  const response = await fetch(`${baseUrl}/api/configurators/${configuratorId}`, { headers: { authorization: `Bearer ${token}` } });
  const item = (await response.json()).items.find((candidate) => candidate.id === Number(itemId));
  return item.filters.map((filter) => filter.expression);
}

/** What has the focus in `page`: its data-testid, else its data-field, else its tag. */
function focused(page) {
  return page.evaluate(() => {
    const active = document.activeElement;
    return active ? active.getAttribute('data-testid') || active.getAttribute('data-field') || active.tagName : null;
  });
}

/** Whether the focus is inside the take-over panel. */
function focusInPanel(page) {
  return page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid=takeover-dialog]')));
}

/** Waits until the countdown shown by `selector` has moved on from what it shows now: the page was drawn again. */
async function countdownTicked(page, selector) {
  const now = await page.locator(selector).textContent();
  await page.waitForFunction(([where, was]) => document.querySelector(where)?.textContent !== was, [selector, now]);
}

/** Goes to `hash` in the user's page. */
async function open(user, hash) {
  await user.page.evaluate((target) => { location.hash = target; }, hash);
}

/** Adds a filter on the open page and waits until it is saved and shown. */
async function addFilter(page, expression) {
  await page.fill('[data-testid=add-entry] input', expression);
  await page.click('[data-testid=add-entry] button[type=submit]');
  await page.locator(`[data-testid=entry] input[value="${expression}"]`).waitFor();
}

/** The row of the filter that reads `expression`. */
function filterRow(page, expression) {
  return page.locator('[data-testid=entry]').filter({ has: page.locator(`input[value="${expression}"]`) });
}

describe('the take-over panel', { timeout: 180_000, skip: OWN_SERVER_ONLY }, () => {
  let server;
  let sara;
  let tom;
  let pages;
  let token;

  before(async () => {
    server = await startServer({ 'editlock.waiting.consent-window': '30s', 'editlock.waiting.sweep-interval': '250ms' });
    ({ hashes: pages, token } = await setUp(server.baseUrl, ['Frame', 'Fork']));
    sara = await new User('Sara', server.baseUrl).launch();
    tom = await new User('Tom', server.baseUrl).launch();
    await Promise.all([sara.signIn(), tom.signIn()]);
  });

  after(async () => {
    await Promise.all([sara && sara.close(), tom && tom.close()]);
    if (server) {
      await server.stop();
    }
  });

  it('asks with Enter in the message; takes the focus on Keep, keeps it through the countdown, lets Tab leave and come back, and Escape keeps the page', async () => {
    await open(sara, pages[0]);
    await waitForStatus(sara.page, 'editing');
    const field = sara.page.locator('[data-testid=add-entry] input');
    await field.fill('frame.size');
    await field.focus();
    const fieldKey = await field.getAttribute('data-field');
    await open(tom, pages[0]);
    await waitForStatus(tom.page, 'blocked');
    await tom.page.locator('[data-testid=takeover-message]').focus();
    await tom.page.keyboard.type('Need the frame');
    await tom.page.keyboard.press('Enter'); // in the message: asks, as the button does
    await tom.page.locator('[data-testid=takeover-pending]').waitFor();
    assert.equal(await focused(tom.page), 'H1', 'the field used is gone: the focus goes to the page’s heading, not to the body');
    await countdownTicked(tom.page, '[data-testid=takeover-pending]');
    assert.equal(await focused(tom.page), 'H1', 'and stays there when the countdown draws the page again');
    await tom.page.locator('[data-testid=wait-for]').focus();

    await sara.page.locator('[data-testid=takeover-dialog]').waitFor();
    assert.equal(await sara.page.locator('[data-testid=takeover-request-message]').textContent(), 'Need the frame');
    await sara.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'takeover-keep');
    await countdownTicked(sara.page, '[data-testid=takeover-countdown]');
    assert.equal(await focused(sara.page), 'takeover-keep', 'the countdown does not take the focus from Keep');
    const announcer = tom.page.locator('[data-testid=status-announcer]');
    await announcer.evaluate((element) => element.setAttribute('data-seen', 'yes'));
    const announced = await announcer.textContent();
    await countdownTicked(tom.page, '[data-testid=takeover-pending]');
    assert.equal(await focused(tom.page), 'wait-for', 'the asker\u2019s countdown does not take the focus from "Notify me"');
    // A screen reader hears the page's status once, not every second: the live region stays, and says the same.
    assert.match(announced, /Currently edited by Sara\. You can view this page/);
    assert.match(announced, /Asked Sara\. The page is yours when the time is up, unless they keep it\./);
    assert.equal(await tom.page.locator('[data-testid=status-announcer][data-seen=yes]').textContent(), announced);
    assert.equal(await tom.page.locator('#app [role=status], #app [aria-live]').count(), 0, 'no live region is drawn anew');

    await sara.page.keyboard.press('Tab');
    assert.equal(await focused(sara.page), 'takeover-handover');
    await sara.page.keyboard.press('Tab');
    assert.equal(await focusInPanel(sara.page), false, 'Tab leads on into the page: the panel does not trap the focus');
    assert.notEqual(await focused(sara.page), 'BODY');
    await sara.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(sara.page), 'takeover-handover', 'and Shift+Tab comes back');
    await screenshot(sara.page, 'sara-answers-with-the-keyboard');

    await sara.page.keyboard.press('Escape');
    await tom.page.locator('.toast', { hasText: 'Sara keeps editing the page for now.' }).waitFor();
    await sara.page.locator('[data-testid=takeover-dialog]').waitFor({ state: 'detached' });
    assert.equal(await focused(sara.page), fieldKey, 'the focus is back where Sara was');
    assert.equal(await field.inputValue(), 'frame.size', 'nothing she typed was lost');
    await waitForStatus(sara.page, 'editing', 1_000);

    // A live region announces what is added to it: the toast shown stays the element it was through redraws.
    await tom.page.locator('.toast', { hasText: 'Sara keeps editing the page for now.' }).evaluate((element) => {
      element.setAttribute('data-seen', 'yes');
    });
    await tom.page.locator('[data-testid=wait-for]').focus();
    await tom.page.keyboard.press('Enter');
    await tom.page.locator('[data-testid=stop-waiting]').waitFor();
    assert.equal(await focused(tom.page), 'stop-waiting', 'the button in the place of "Notify me" has the focus');
    assert.equal(await tom.page.locator('.toasts .toast[data-seen=yes]').count(), 1, 'the toast was not drawn anew');
    assert.equal(await tom.page.locator('.toasts').count(), 1);
    await tom.page.keyboard.press('Enter');
    await tom.page.locator('[data-testid=wait-for]').waitFor();
    assert.equal(await focused(tom.page), 'wait-for');
  });

  it('leaves the page usable: Sara saves, deletes, and then hands over; the delete reaches the server first', async () => {
    await tom.page.locator('[data-testid=tree-item][data-item-name=Fork] a').focus();
    await open(sara, pages[1]);
    await waitForStatus(sara.page, 'editing');
    await tom.page.locator('[data-testid=tree-item][data-item-name=Fork] [data-testid=lock-chip]').waitFor();
    assert.equal(await tom.page.evaluate(() => document.activeElement?.closest('[data-testid=tree-item]')?.getAttribute('data-item-name')),
      'Fork', 'the tree drawn anew for Sara\u2019s lock keeps the focus on the link Tom was on');
    await addFilter(sara.page, 'keep-me');
    await addFilter(sara.page, 'delete-me');
    await filterRow(sara.page, 'keep-me').locator('input').fill('kept-and-saved');
    await open(tom, pages[1]);
    await waitForStatus(tom.page, 'blocked');
    await tom.page.click('[data-testid=ask-holder]');
    await sara.page.locator('[data-testid=takeover-dialog]').waitFor();

    // With the mouse: nothing covers the page.
    await filterRow(sara.page, 'kept-and-saved').locator('button.save').click({ timeout: 2_000 });
    await sara.page.locator('.toast', { hasText: 'Saved.' }).waitFor();
    await sara.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'takeover-keep');
    // With the keyboard: the Delete used is gone, and the question comes next.
    await filterRow(sara.page, 'delete-me').getByRole('button', { name: 'Delete' }).focus();
    await sara.page.keyboard.press('Enter');
    await sara.page.locator('.toast', { hasText: 'Filter deleted.' }).waitFor();
    await sara.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'takeover-keep');
    await sara.page.keyboard.press('Tab');
    await sara.page.keyboard.press('Enter'); // Hand over, within the delete's Undo time

    await waitForStatus(tom.page, 'editing');
    await waitForStatus(sara.page, 'lost');
    assert.deepEqual(await savedFilters(server.baseUrl, token, pages[1]), ['kept-and-saved']);
    assert.equal(await sara.page.locator('.toast', { hasText: 'was not deleted' }).count(), 0);
  });
});
