// widgets.js — small pieces the views and pages share.

import { h, avatar } from './dom.js';
import { since } from './model.js';
import { icon } from './icons.js';

/** @typedef {import('./app/store.js').State} State */

/**
 * "🔒 Sara · Filters" — who holds a lock, shown wherever that page is listed.
 * @param {State} state
 * @param {import('./editlock-client.js').Lock} lock
 * @param {string | null} what
 */
export function lockChip(state, lock, what) {
  const mine = lock.ownerUserId === state.auth?.userId;
  const who = mine ? 'You' : lock.ownerUserName;
  return h('span', {
    class: ['lock-chip', mine ? 'mine' : 'theirs'],
    'data-testid': 'lock-chip',
    title: `${mine ? 'You are' : `${lock.ownerUserName} is`} editing${what ? ` ${what}` : ''} since ${since(lock.acquiredAt)}`,
  },
  avatar(lock.ownerUserId, lock.ownerUserName, 'xs'),
  h('span', null, what ? `${who} \u00b7 ${what}` : who));
}

/**
 * A calm box for "nothing here": a title, a sentence, and what to do next.
 * @param {string} title
 * @param {string} text
 * @param {Node | null} [action]
 * @param {Parameters<typeof icon>[0] | null} [iconName]
 */
export function emptyState(title, text, action, iconName = null) {
  return h('div', { class: 'empty', 'data-testid': 'empty-state' },
    iconName ? h('div', { class: 'empty-icon' }, icon(iconName)) : null,
    h('div', { class: 'empty-title' }, title), h('p', { class: 'muted' }, text), action || null);
}

/**
 * An input whose typed text survives re-renders (kept in state.drafts under `key`).
 * @param {State} state
 * @param {{draft: (key: string, value: string) => void}} actions
 * @param {string} key
 * @param {string | number | null | undefined} initial
 * @param {Record<string, any>} [attrs]
 * @param {(() => void) | null} [onChange]
 * @returns {HTMLInputElement}
 */
export function boundInput(state, actions, key, initial, attrs = {}, onChange = null) {
  const value = state.drafts.has(key) ? state.drafts.get(key) : (initial ?? '');
  return /** @type {HTMLInputElement} */ (h('input', {
    ...attrs,
    value: String(value),
    'data-field': key,
    on: { input: (/** @type {Event} */ event) => {
      actions.draft(key, /** @type {HTMLInputElement} */ (event.target).value);
      if (onChange) onChange();
    } },
  }));
}

