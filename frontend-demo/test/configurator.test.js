// The demo's open configurator (app/configurator.js) with a fake REST API: a read that fails for another
// reason than the configurator's absence (a proxy's 502, a moment offline) leaves the page being edited in place.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createConfigurator } from '../app/configurator.js';
import { ApiError } from '../api.js';
import { until } from './support/scripted-server.js';

/** Configurator 12 as GET /api/configurators/12 answers, its name `name`. */
const configuratorNamed = (name) => ({ id: 12, name, items: [{ id: 5, name: 'Frame', filters: [{ id: 31, expression: 'frame.size >= 54' }] }] });

/**
 * Configurator 12 open, read once (named "City bike"), with what the user typed into its filter; GET answers with
 * `answer(read)` (the read's number, from 1, counting the first): an ApiError is thrown. Reads again after 5, 10 and 20 ms.
 */
async function openConfigurator(answer) {
  const app = {
    state: { route: { view: 'item', configuratorId: 12, itemId: 5, page: 'filters' }, view: null, viewError: null, viewNotice: null,
      drafts: new Map([['e:filters:31:expression', 'frame.size >= 56']]) },
    render: () => {},
    reads: 0,
    session: {
      api: {
        configurator: async () => {
          app.reads += 1;
          const answered = app.reads === 1 ? configuratorNamed('City bike') : answer(app.reads);
          if (answered instanceof ApiError) {
            throw answered;
          }
          return answered;
        },
      },
    },
  };
  app.configurator = createConfigurator(app, { rereadDelaysMs: [5, 10, 20] });
  assert.equal(await app.configurator.reload(), true);
  return app;
}

const BAD_GATEWAY = new ApiError(502, null);

describe('the demo\u2019s open configurator', () => {
  it('a read that fails with a 502 keeps the configurator shown, says so, and reads it again', async () => {
    const app = await openConfigurator((read) => (read === 2 ? BAD_GATEWAY : configuratorNamed('City bike 2')));
    const shown = app.state.view;

    assert.equal(await app.configurator.reload(), false);
    assert.equal(app.state.viewError, null, 'not "Not found": the configurator exists');
    assert.equal(app.state.view, shown, 'the page being edited stays');
    assert.deepEqual(app.state.viewNotice, { message: 'The server answered 502.', retrying: true });

    await until(() => app.state.view.name === 'City bike 2');
    assert.equal(app.state.viewNotice, null, 'read again: nothing to say any more');
    assert.equal(app.state.drafts.get('e:filters:31:expression'), 'frame.size >= 56', 'what the user typed is kept');
  });

  it('reads again after each wait, then stops and lets the user try again, with the page and what was typed still there', async () => {
    const app = await openConfigurator(() => BAD_GATEWAY);
    const shown = app.state.view;

    await app.configurator.reload();
    await until(() => app.state.viewNotice?.retrying === false);
    assert.equal(app.reads, 5, 'the failed read, and one after each of the three waits');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(app.reads, 5, 'no more reads by itself');
    assert.equal(app.state.viewError, null);
    assert.equal(app.state.view, shown);
    assert.equal(app.state.drafts.get('e:filters:31:expression'), 'frame.size >= 56');
  });

  it('a 404 says the configurator does not exist, and nothing of it stays listed', async () => {
    const app = await openConfigurator(() => new ApiError(404, null));
    app.state.locks = [{ resource: { type: 'item-subresource', configuratorId: 12, itemId: 5, page: 'filters' }, ownerUserId: '8' }];

    await app.configurator.reload();
    assert.equal(app.state.viewError, 'This configurator does not exist (any more).');
    assert.equal(app.state.viewNotice, null);
    assert.equal(app.state.view, null, 'the sidebar no longer lists its items as links');
    assert.deepEqual(app.state.locks, []);
  });
});
