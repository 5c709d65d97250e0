// The demo's words and drafts (model.js): which saved value a draft edits, and which drafts are stale.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editedByMessage, lostReasonText, normalizeConfigurator, savedValue, staleDrafts } from '../model.js';

const VIEW = normalizeConfigurator({
  id: 12, name: 'City bike', variables: [{ id: 40, name: 'weight', formula: 'sum(w)' }],
  items: [{ id: 5, name: 'Frame', filters: [{ id: 31, expression: 'size >= 54' }], dependencies: [{ id: 33, targetItemId: 6, effect: 'requires' }],
    children: [{ id: 6, name: 'Fork' }] }],
});

describe('the saved value a draft edits', () => {
  it('is read from the configurator by the draft\u2019s key, as the input shows it', () => {
    assert.equal(savedValue(VIEW, 'e:filters:31:expression'), 'size >= 54');
    assert.equal(savedValue(VIEW, 'e:dependencies:33:targetItemId'), '6');
    assert.equal(savedValue(VIEW, 'e:variables:40:formula'), 'sum(w)');
    assert.equal(savedValue(VIEW, 'cfg:12:name'), 'City bike');
    assert.equal(savedValue(VIEW, 'item:6:name'), 'Fork');
  });

  it('is undefined when what it edits is gone, null when it edits nothing saved', () => {
    assert.equal(savedValue(VIEW, 'e:filters:99:expression'), undefined);
    assert.equal(savedValue(VIEW, 'item:99:name'), undefined);
    assert.equal(savedValue(VIEW, 'new:filters:5:expression'), null);
    assert.equal(savedValue(VIEW, 'new-item:name'), null);
    assert.equal(savedValue(VIEW, 'takeover-message:item:5:filters'), null);
  });

  it('makes a draft stale once it is no longer its base: changed or deleted by someone else', () => {
    const bases = new Map([['e:filters:31:expression', 'size >= 52'], ['item:6:name', 'Fork'], ['e:filters:99:expression', 'x']]);
    assert.deepEqual(staleDrafts(bases, VIEW), ['e:filters:31:expression', 'e:filters:99:expression']);
  });
});

describe('why a page was taken over, in words', () => {
  it('says the user handed it over only when they did, and names who has it', () => {
    assert.equal(lostReasonText('taken-over', { byUserName: 'Tom', handedOver: true }), 'You handed this page over to Tom.');
    assert.equal(lostReasonText('taken-over', { byUserName: 'Tom', handedOver: false }),
      'Tom asked for this page; it passed to them.', 'neutral: another tab may have handed it over');
    assert.doesNotMatch(lostReasonText('taken-over'), /You handed/);
  });
});

describe('the words of a blocked page', () => {
  const structure = { type: 'configurator', configuratorId: 12 };
  const forkDependencies = { type: 'item-subresource', configuratorId: 12, itemId: 6, page: 'dependencies' };
  const frameFilters = { type: 'item-subresource', configuratorId: 12, itemId: 5, page: 'filters' };
  const said = (words) => `${words.headline} ${words.rest}`;

  it('say who edits the page when it is the page\u2019s own lock in the way', () => {
    assert.equal(said(editedByMessage('Tom', frameFilters, frameFilters, VIEW)),
      'Currently edited by Tom. You can view this page. It will become editable when they\u2019re done.');
    assert.equal(editedByMessage('Tom').headline, 'Currently edited by Tom.', 'the lock in the way not known yet');
  });

  it('on the structure, name the page of the configurator that someone edits, not the structure', () => {
    assert.equal(said(editedByMessage('Tom', forkDependencies, structure, VIEW)),
      'Tom is editing Fork \u203a Dependencies. The structure can be edited when no one edits a page of this configurator.');
    assert.equal(editedByMessage('Tom', { type: 'variables', configuratorId: 12 }, structure, VIEW).headline, 'Tom is editing the variables.');
  });

  it('on a page, say that the structure is what someone edits', () => {
    assert.equal(editedByMessage('Tom', structure, frameFilters, VIEW).headline, 'Tom is editing the structure of this configurator.');
  });
});
