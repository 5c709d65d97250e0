// End-to-end: what people run into every day, each in their own Chromium against the real server.
// Tom edits, Sara watches; Tom reloads; saves say whether they worked; a deleted filter comes back
// with Undo; a page that does not exist says so; a new tab is signed in already.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer } from './server.js';
import { User, readmeShot, screenshot, waitForStatus } from './browser.js';
import { graceSentinel } from './sentinels.js';

function treeRow(page, itemName) {
  return page.locator(`[data-testid=tree-item][data-item-name="${itemName}"]`);
}

async function bannerText(page) {
  return (await page.locator('[data-testid=lock-banner]').textContent()).replace(/\s+/g, ' ').trim();
}

/** An editable entry row whose first input shows `text`. */
function editableEntry(page, text) {
  return page.locator('[data-testid=entry]').filter({ has: page.locator(`input[value=${JSON.stringify(text)}]`) });
}

/** An entry row showing `text`, editable or read-only. */
function entry(page, text) {
  const rows = page.locator('[data-testid=entry]');
  return rows.filter({ hasText: text }).or(editableEntry(page, text));
}

function toast(page, text) {
  return page.locator('[data-testid=toast]', { hasText: text });
}

async function addEntry(page, text) {
  await page.fill('[data-testid=add-entry] input', text);
  await page.click('[data-testid=add-entry] button[type=submit]');
  await editableEntry(page, text).waitFor();
}

/** Where the element is on screen, once it is there (every render replaces the DOM: measured again if it was replaced). */
async function boxOf(locator) {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    await locator.waitFor({ timeout: 5_000 });
    const box = await locator.boundingBox().catch(() => null);
    if (box) {
      return box;
    }
  }
  return assert.fail('the element is on screen');
}

/** Resolves once the page has handled what came before and drawn itself again (two animation frames). */
async function drawn(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Records every lock status the page shows from now on, also those shown only for a moment. */
async function recordStatuses(page) {
  await page.evaluate(() => {
    window.__statuses = [];
    const note = () => {
      const status = document.querySelector('[data-testid=page]')?.getAttribute('data-status') ?? 'none';
      if (window.__statuses[window.__statuses.length - 1] !== status) {
        window.__statuses.push(status);
      }
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
}

describe('every day in the demo', { timeout: 300_000 }, () => {
  let server;
  let tom;
  let sara;
  let filtersUrl;
  let configuratorUrl;

  before(async () => {
    server = await startServer();
    tom = await new User('Tom', server.baseUrl).launch();
    sara = await new User('Sara', server.baseUrl).launch();
  });

  after(async () => {
    await Promise.all([tom && tom.close(), sara && sara.close()]);
    if (server) {
      await server.stop();
    }
  });

  it('Tom builds a configurator and edits the filters of an item: every save says it was saved', async () => {
    const page = tom.page;
    await page.goto(`${server.baseUrl}/`);
    await readmeShot(page, 'sign-in');
    await tom.signIn();
    await page.fill('#new-configurator-name', 'City bike');
    await page.click('button:has-text("New configurator")');
    await waitForStatus(page, 'editing');
    configuratorUrl = page.url().replace(/\/structure$/, '');
    await page.fill('[data-field="new-item:name"]', 'Frame');
    await page.click('[data-testid=add-item] button[type=submit]');
    await treeRow(page, 'Frame').waitFor();
    await toast(page, 'Saved.').first().waitFor();

    await treeRow(page, 'Frame').locator('a.tree-link').click();
    await waitForStatus(page, 'editing');
    filtersUrl = page.url();
    await addEntry(page, 'frame.size >= 54');
    await toast(page, 'Saved.').first().waitFor();
    // A re-render (the add's own content-changed reloads the page) gives the input the typed text as
    // its value: find the row by the entry's field, which stays, not by the value, which changes.
    const field = await editableEntry(page, 'frame.size >= 54').locator('input').getAttribute('data-field');
    const row = page.locator('[data-testid=entry]').filter({ has: page.locator(`[data-field="${field}"]`) });
    await row.locator('input').fill('frame.size >= 56');
    const [patched] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/api/filters/')),
      row.locator('button.save').click(),
    ]);
    assert.equal(patched.status(), 200, 'the change was saved');
    await page.locator('[data-testid=toast]').last().filter({ hasText: 'Saved.' }).waitFor({ timeout: 3_000 });
    await readmeShot(page, 'editing-saved');
  });

  it('Sara opens the same page: read-only, with the app\u2019s own lock icon (no emoji)', async () => {
    const page = sara.page;
    await sara.signIn();
    await page.goto(filtersUrl);
    await waitForStatus(page, 'blocked');
    const text = await bannerText(page);
    assert.ok(text.includes('Currently edited by Tom.'), `the banner names Tom: ${text}`);
    assert.equal(await page.locator('[data-testid=lock-banner] svg[data-icon=lock]').count(), 1, 'an inline SVG lock');
    assert.ok(!/\p{Extended_Pictographic}/u.test(text), `no emoji in the banner: ${text}`);
    await readmeShot(page, 'read-only-while-tom-edits');
  });

  it('Tom reloads: Sara never sees the page free, Tom is editing again with the same grant', async (t) => {
    const token = await tom.page.getAttribute('[data-testid=page]', 'data-lock-token');
    assert.ok(token, 'Tom holds the page');
    const sentinel = await graceSentinel(server.baseUrl);
    await recordStatuses(sara.page);
    const reloadedAt = Date.now();

    await tom.page.reload();
    await waitForStatus(tom.page, 'editing', 10_000);
    const editingAfter = Date.now() - reloadedAt;
    assert.equal(await tom.page.getAttribute('[data-testid=page]', 'data-lock-token'), token, 'the same grant (fencing token)');
    const resumed = tom.frames.find((f) => f.dir === 'in' && f.at >= reloadedAt && f.event === 'resumed');
    assert.ok(resumed && resumed.data.locks.length === 1, 'the reloaded page resumed Tom\u2019s lock');
    t.diagnostic(`Tom was editing again ${editingAfter} ms after the reload (resumed after ${resumed.at - reloadedAt} ms)`);

    // Past the old page's reload grace, Sara never saw the page free. A socket closed the same way after
    // the old page loses its lock when its own reload grace ends; the old page's grace is over by then.
    const graceMs = await sentinel.end('page-gone');
    t.diagnostic(`the reload grace of a socket closed after Tom's old page ended ${graceMs} ms after its close`);
    const statuses = await sara.page.evaluate(() => window.__statuses);
    assert.deepEqual(statuses, ['blocked'], 'Sara\u2019s page stayed read-only all along');
    const released = sara.frames.filter((f) => f.dir === 'in' && f.at >= reloadedAt && f.event === 'lock-released');
    assert.deepEqual(released, [], 'Sara saw no lock-released');
    assert.ok((await bannerText(sara.page)).includes('Currently edited by Tom.'));
    await waitForStatus(tom.page, 'editing', 1_000);
  });

  it('a link opened in a new tab is signed in already, with a socket of its own', async () => {
    const firstSocket = tom.frames.filter((f) => f.event === 'welcome').at(-1).data.socketId;
    const tab = await tom.context.newPage();
    tom.watchPage(tab);
    await tab.goto(configuratorUrl);
    await tab.locator('[data-testid=connection]', { hasText: 'Live' }).waitFor();
    assert.equal(await tab.locator('#signin-name').count(), 0, 'no second sign-in');
    const welcomes = tom.frames.filter((f) => f.event === 'welcome');
    assert.notEqual(welcomes.at(-1).data.socketId, firstSocket, 'the new tab has its own socket');
    await tab.close();
  });

  it('a new tab whose first sockets fail keeps trying: nobody is signed out, Tom keeps his page', async () => {
    await tom.page.goto(filtersUrl);
    await waitForStatus(tom.page, 'editing');
    const token = await tom.page.getAttribute('[data-testid=page]', 'data-lock-token');
    const tab = await tom.context.newPage();
    tom.watchPage(tab);
    let failed = 0;
    // As a network hiccup, or a node that stops, would end them: before the welcome.
    await tab.routeWebSocket(/\/locking/, (socket) => {
      if (failed < 2) {
        failed += 1;
        socket.close({ code: 1011, reason: 'hiccup' });
        return;
      }
      socket.connectToServer();
    });
    await tab.goto(configuratorUrl);
    await tab.locator('[data-testid=connection]', { hasText: 'Live' }).waitFor({ timeout: 15_000 });
    assert.equal(failed, 2, 'the first two sockets failed');
    assert.equal(await tab.locator('#signin-name').count(), 0, 'the new tab is signed in');
    assert.equal(await tom.page.locator('#signin-name').count(), 0, 'the first tab is signed in');
    await waitForStatus(tom.page, 'editing', 1_000);
    assert.equal(await tom.page.getAttribute('[data-testid=page]', 'data-lock-token'), token, 'Tom still holds his page');
    await tab.close();
  });

  it('Sara asks Tom for his page and Tom reloads: the reloaded page asks him again, and he keeps it', async () => {
    await sara.page.goto(filtersUrl);
    await waitForStatus(sara.page, 'blocked');
    await waitForStatus(tom.page, 'editing');
    await sara.page.click('[data-testid=ask-holder]');
    const dialog = tom.page.locator('[data-testid=takeover-dialog]');
    await dialog.waitFor();

    await tom.page.reload();
    await waitForStatus(tom.page, 'editing', 10_000);
    await dialog.waitFor({ timeout: 5_000 });
    assert.ok((await dialog.textContent()).includes('Sara asks for the page you are editing'), await dialog.textContent());
    await tom.page.click('[data-testid=takeover-keep]');
    await sara.page.locator('.toast', { hasText: 'Tom keeps editing the page for now.' }).waitFor();
    await waitForStatus(tom.page, 'editing', 1_000);
  });

  it('saves that fail say why in plain words, and keep the change in the form', async () => {
    const page = tom.page;
    const refuse = (status, body) => page.route('**/api/items/*/filters', (route) => (route.request().method() === 'POST'
      ? route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) })
      : route.continue()));

    await refuse(503, { message: 'the lock store is unavailable' });
    await page.fill('[data-testid=add-entry] input', 'frame.color != "pink"');
    await page.click('[data-testid=add-entry] button[type=submit]');
    const unavailable = toast(page, 'Not saved: the lock service is unavailable right now.');
    await unavailable.waitFor();
    assert.match(await unavailable.textContent(), /try again in a moment/);
    assert.equal(await page.inputValue('[data-testid=add-entry] input'), 'frame.color != "pink"', 'the change is still in the form');
    await readmeShot(page, 'save-failed-503');
    await page.unroute('**/api/items/*/filters');

    await refuse(412, { message: 'the Lock-Token does not match' });
    await page.click('[data-testid=add-entry] button[type=submit]');
    await waitForStatus(page, 'lost', 5_000);
    assert.ok((await bannerText(page)).includes('Your edit lock ran out'), await bannerText(page));
    await toast(page, 'Not saved: your edit lock ran out. Click \u201cEdit again\u201d').waitFor();
    await page.unroute('**/api/items/*/filters');
    await page.click('[data-testid=lock-banner] button:has-text("Edit again")');
    await waitForStatus(page, 'editing');
    assert.equal(await page.inputValue('[data-testid=add-entry] input'), 'frame.color != "pink"', 'still there after Edit again');

    await refuse(423, { message: 'Currently edited by Sara', lockedBy: 'Sara', lockedByUserId: 'demo-sara' });
    await page.click('[data-testid=add-entry] button[type=submit]');
    const locked = toast(page, 'Not saved: Sara is editing this page now.');
    await locked.waitFor();
    assert.match(await locked.textContent(), /save it again when the page is yours/);
    await page.unroute('**/api/items/*/filters');
    await waitForStatus(page, 'editing'); // Tom really holds it: the fresh lock state gives it back
    await page.click('[data-testid=add-entry] button[type=submit]');
    await editableEntry(page, 'frame.color != "pink"').waitFor();
    await toast(page, 'Saved.').first().waitFor();
  });

  it('a save whose answer was lost, saved again, makes one entry', async () => {
    const page = tom.page;
    const filters = '**/api/items/*/filters';
    /** The id of the filter each create made (or answered again), as the server said. */
    const created = [];
    // Every create reaches the server; the answer of the first never reaches the page.
    await page.route(filters, async (route) => {
      if (route.request().method() !== 'POST') {
        await route.continue();
        return;
      }
      const answer = await route.fetch();
      created.push((await answer.json()).id);
      await (created.length === 1 ? route.abort('connectionreset') : route.fulfill({ response: answer }));
    });
    await page.fill('[data-testid=add-entry] input', 'frame.size == 54');
    await page.click('[data-testid=add-entry] button[type=submit]');
    await toast(page, 'The server cannot be reached.').waitFor();
    assert.equal(await page.inputValue('[data-testid=add-entry] input'), 'frame.size == 54', 'the change is still in the form');

    const savedAgain = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/filters'));
    await page.click('[data-testid=add-entry] button[type=submit]');
    assert.equal((await savedAgain).status(), 201);
    await page.unroute(filters);
    assert.equal(created.length, 2, 'the page saved twice');
    assert.equal(created[1], created[0], 'saved again, the server answered with the filter it made the first time');
    await editableEntry(page, 'frame.size == 54').waitFor();
  });

  it('a double click on Add never hits a Delete, and a deleted filter comes back with Undo', async () => {
    const page = tom.page;
    await page.fill('[data-testid=add-entry] input', 'frame.weight < 2');
    const add = page.locator('[data-testid=add-entry] button[type=submit]');
    const box = await boxOf(add);
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.click(x, y);
    await editableEntry(page, 'frame.weight < 2').waitFor();
    const under = await page.evaluate(([px, py]) => {
      const element = document.elementFromPoint(px, py)?.closest('button');
      return element ? { text: element.textContent, danger: element.classList.contains('danger') } : null;
    }, [x, y]);
    assert.ok(!under || !under.danger, `after Add the pointer is over ${JSON.stringify(under)}, not a Delete`);
    await page.mouse.click(x, y); // the second click of a double click
    await drawn(page);
    assert.equal(await editableEntry(page, 'frame.weight < 2').count(), 1, 'the second click deleted nothing');

    // Every delete the page sends, and whether Sara still saw the filter when it went out.
    const deletes = [];
    const filterUrls = (url) => url.pathname.startsWith('/api/filters/');
    await page.route(filterUrls, async (route) => {
      if (route.request().method() === 'DELETE') {
        deletes.push({ saraSawIt: await entry(sara.page, 'frame.weight < 2').count() });
      }
      await route.continue();
    });
    await editableEntry(page, 'frame.weight < 2').locator('button.danger').click();
    assert.equal(await editableEntry(page, 'frame.weight < 2').count(), 0, 'the row is gone at once');
    const undoToast = toast(page, 'Filter deleted.');
    await undoToast.waitFor();
    await readmeShot(page, 'deleted-with-undo');
    await undoToast.locator('button', { hasText: 'Undo' }).click();
    await editableEntry(page, 'frame.weight < 2').waitFor({ timeout: 1_000 });

    // Deleted again: this Undo window ends after the first one, so an undone delete that was sent
    // anyway would have gone out first.
    await editableEntry(page, 'frame.weight < 2').locator('button.danger').click();
    await entry(sara.page, 'frame.weight < 2').waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await editableEntry(page, 'frame.weight < 2').count(), 0, 'deleted once the Undo window is over');
    assert.deepEqual(deletes, [{ saraSawIt: 1 }], 'past the first Undo window nothing was sent: Sara still saw the filter');
    await page.unroute(filterUrls);
  });

  it('a configurator or an item that does not exist gets a proper not-found page', async () => {
    const page = tom.page;
    await page.goto(`${server.baseUrl}/#/c/999999`);
    const empty = page.locator('[data-testid=empty-state]', { hasText: 'Not found' });
    await empty.waitFor();
    await page.locator('[data-testid=sidebar]', { hasText: 'Not found' }).waitFor({ timeout: 3_000 });
    assert.equal(await page.locator('[data-testid=sidebar]', { hasText: 'Loading' }).count(), 0, 'the sidebar is not stuck on Loading');
    const card = await boxOf(empty);
    const bar = await boxOf(page.locator('.topbar'));
    const viewport = page.viewportSize();
    assert.ok(card.y >= bar.y + bar.height + 16, `space between the top bar and the card: ${card.y - bar.y - bar.height} px`);
    assert.ok(card.x + card.width <= viewport.width - 16, `space at the right edge: ${viewport.width - card.x - card.width} px`);
    await readmeShot(page, 'not-found');

    await page.goto(`${configuratorUrl}/items/999999/filters`);
    const missingItem = page.locator('[data-testid=empty-state]', { hasText: 'This item does not exist' });
    await missingItem.waitFor();
    const itemCard = await boxOf(missingItem);
    assert.ok(itemCard.y >= bar.y + bar.height + 16, 'the missing item\u2019s card has space above it');
    assert.ok(itemCard.x + itemCard.width <= viewport.width - 16, 'and at the right edge');
    await screenshot(page, 'missing-item');
  });

  it('no page had a script error', () => {
    assert.deepEqual([...(tom.errors || []), ...(sara.errors || [])], []);
  });
});
