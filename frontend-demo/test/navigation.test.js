// The demo's navigation (app/navigation.js) with fakes for the parts it reaches: a navigation that waited
// for its configurator does not open its page once a later navigation has taken over.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createNavigation } from '../app/navigation.js';
import { deferred } from './support/scripted-server.js';

/** A signed-in demo whose configurator switch waits for `switched`; the pages it opens are recorded. */
function demo(switched) {
  const opened = [];
  const app = {
    state: { auth: { userId: 'demo-sara' }, route: { view: 'home' }, edit: null },
    render: () => {},
    configurator: { switchTo: () => switched, loadList() {} },
    edit: {
      leave() {},
      open(key, resource) {
        opened.push(key);
        app.state.edit = { key, resource, status: 'opening' };
      },
    },
  };
  return { app, opened, navigation: createNavigation(app) };
}

describe('the demo\u2019s navigation', () => {
  beforeEach(() => { globalThis.location = { hash: '' }; });
  afterEach(() => { delete globalThis.location; });

  it('a navigation overtaken while its configurator loads does not open its page', async () => {
    const loading = deferred();
    const { app, opened, navigation } = demo(loading.promise);
    location.hash = '#/c/12/items/5/filters';
    const first = navigation.navigate(); // loads configurator 12
    location.hash = '#/c/12/items/6/filters'; // the user clicks on before it is loaded
    await navigation.navigate();
    assert.deepEqual(opened, ['item:6:filters']);

    loading.resolve();
    await first;
    assert.deepEqual(opened, ['item:6:filters'], 'the page the user left is not locked');
    assert.equal(app.state.edit.key, 'item:6:filters');
    assert.deepEqual(app.state.route, { view: 'item', configuratorId: 12, itemId: 6, page: 'filters' });
  });
});
