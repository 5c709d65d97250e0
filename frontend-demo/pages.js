// pages.js — the lockable pages: an item's filters, dependencies and attribute values, the
// variables, and the structure (the whole configurator). Editable only while we hold the lock.

import { h, avatar } from './dom.js';
import { PAGE_TITLES, KEPT_AFTER_DROP_MS, itemsInOrder, editedByMessage } from './model.js';
import { lockChip, emptyState, boundInput } from './widgets.js';
import { blockedExtras } from './handover.js';
import { icon } from './icons.js';

/** @typedef {import('./app/store.js').State} State */
/** @typedef {ReturnType<typeof import('./app/actions.js').createActions>} Actions */
/** @typedef {import('./editlock-client.js').Page} Page */
/** @typedef {import('./model.js').ConfiguratorView} ConfiguratorView */
/** @typedef {import('./model.js').ItemView} ItemView */
/** @typedef {import('./model.js').Entry} Entry */
/** @typedef {Page | 'variables'} EntryKind the entries a page lists: an item's page, or the variables */
/** @typedef {{itemId?: number}} Where the item whose entries they are (none for the variables) */

/**
 * One column of an entry list.
 * @typedef {object} Field
 * @property {string} key the entry's field
 * @property {string} label
 * @property {string} [placeholder]
 * @property {boolean} [mono] monospaced (code-like values)
 * @property {'item'} [type] 'item': an item of this configurator, chosen from a list
 * @property {string[]} [suggestions] offered while typing
 * @property {boolean} [optional] may be left empty
 */

/**
 * An entry list: what one entry is called, its columns, and what an empty list says.
 * @typedef {{noun: string, fields: Field[], empty: string}} Schema
 */

/** @type {Record<EntryKind, Schema>} */
const SCHEMAS = {
  filters: {
    noun: 'filter',
    fields: [{ key: 'expression', label: 'Condition', placeholder: 'e.g. frame.size >= 54', mono: true }],
    empty: 'No filters yet. Filters decide when this item is offered to the customer.',
  },
  dependencies: {
    noun: 'dependency',
    fields: [
      { key: 'targetItemId', label: 'Affects item', type: 'item' },
      { key: 'effect', label: 'Effect', placeholder: 'e.g. requires', suggestions: ['requires', 'excludes', 'recommends', 'hides'] },
    ],
    empty: 'No dependencies yet. Dependencies say what choosing this item changes elsewhere.',
  },
  attributes: {
    noun: 'attribute value',
    fields: [
      { key: 'name', label: 'Attribute', placeholder: 'e.g. weight' },
      { key: 'value', label: 'Value', placeholder: 'e.g. 1.2 kg', optional: true },
    ],
    empty: 'No attribute values yet. Attribute values describe this item (weight, color, price group\u2026).',
  },
  variables: {
    noun: 'variable',
    fields: [
      { key: 'name', label: 'Variable', placeholder: 'e.g. totalWeight', mono: true },
      { key: 'formula', label: 'Formula', placeholder: 'e.g. sum(items.weight)', mono: true },
    ],
    empty: 'No variables yet. Variables are computed from the customer\u2019s choices.',
  },
};

/**
 * The open page: header, lock status, content.
 * @param {State} state
 * @param {Actions} actions
 */
export function renderPage(state, actions) {
  const route = state.route;
  const view = /** @type {ConfiguratorView} */ (state.view);
  const edit = state.edit;
  const item = route.view === 'item' ? view.items.get(/** @type {number} */ (route.itemId)) : null;
  if (route.view === 'item' && !item) {
    return h('div', { class: 'content' }, emptyState('This item does not exist', 'It may have been deleted by someone restructuring the configurator.',
      h('a', { class: 'button primary', href: `#/c/${view.id}` }, 'Back to the overview'), 'search'));
  }
  const editable = edit != null && edit.status === 'editing';
  const page = /** @type {Page} */ (route.page);
  const title = item ? item.name : route.view === 'variables' ? 'Variables' : 'Structure';
  return h('div', {
    class: ['content', 'page', editable ? 'is-editing' : 'is-readonly'],
    'data-testid': 'page',
    'data-status': edit ? edit.status : 'none',
    'data-lock-token': editable && edit.token !== undefined ? String(edit.token) : null,
  },
  h('div', { class: 'page-header' },
    h('div', null,
      h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' },
        h('a', { href: `#/c/${view.id}` }, view.name),
        item ? ancestors(view, item).map((a) => [h('span', { class: 'sep' }, '/'), h('span', null, a.name)]) : null),
      h('h1', { tabindex: '-1', 'data-focus-fallback': true, 'data-focus-key': 'heading' }, title))),
  item ? tabs(state, item) : null,
  statusBanner(state, actions),
  h('div', { class: ['page-body', route.view === 'structure' && 'plain'] },
    item ? entries(state, actions, page, item[page], { itemId: item.id })
      : route.view === 'variables' ? entries(state, actions, 'variables', view.variables, {})
        : structure(state, actions)));
}

/**
 * The item and the items above it, the top one first.
 * @param {ConfiguratorView} view
 * @param {ItemView} item
 */
function ancestors(view, item) {
  /** @type {ItemView[]} */
  const path = [];
  for (let current = /** @type {ItemView | null | undefined} */ (item); current; current = current.parentItemId ? view.items.get(current.parentItemId) : null) {
    path.unshift(current);
  }
  return path;
}

/** @param {State} state @param {ItemView} item */
function tabs(state, item) {
  const route = state.route;
  return h('div', { class: 'tabs', role: 'tablist' }, Object.entries(PAGE_TITLES).map(([page, label]) => {
    const lock = state.locks.find((l) => l.resource.itemId === item.id && l.resource.page === page);
    const count = item[/** @type {Page} */ (page)].length;
    return h('a', {
      class: ['tab', route.page === page && 'active'],
      role: 'tab',
      'aria-selected': route.page === page ? 'true' : 'false',
      href: `#/c/${route.configuratorId}/items/${item.id}/${page}`,
      'data-focus-key': `tab:${page}`,
    },
    h('span', null, label), count ? h('span', { class: 'count' }, String(count)) : null,
    lock && route.page !== page ? lockChip(state, lock, null) : null);
  }));
}

// ---- the lock status of the open page -----------------------------------------------------------

/** @param {State} state @param {Actions} actions */
function statusBanner(state, actions) {
  const edit = state.edit;
  if (!edit) {
    return null;
  }
  const reconnecting = state.connection === 'reconnecting' || state.connection === 'connecting';
  switch (edit.status) {
    case 'opening':
      return banner('neutral', 'clock', h('span', null, 'Opening this page for editing\u2026'));
    case 'editing':
      if (reconnecting && state.connectionLostAt !== null && Date.now() - state.connectionLostAt >= KEPT_AFTER_DROP_MS) {
        return banner('lost', 'warning',
          h('span', { class: 'banner-text' }, h('strong', null, 'Connection lost for a while \u2014 reconnecting.'),
            ' Your edit lock may have been released. What you typed stays in the form until you are connected again.'));
      }
      return banner('editing', 'pencil',
        h('span', null, h('strong', null, 'You are editing this page.'),
          reconnecting
            ? ' Connection lost \u2014 reconnecting. Your edit lock is kept for a few seconds.'
            : ' Others can view it until you leave.'));
    case 'blocked': {
      const words = editedByMessage(edit.blockedBy ? edit.blockedBy.name : 'someone else', edit.blockedBy?.resource, edit.resource, state.view);
      return banner('locked', 'lock',
        h('span', { class: 'banner-text' },
          edit.reason ? h('strong', { 'data-testid': 'lost-reason' }, `${edit.reason} `) : null,
          h('strong', null, words.headline), ' ', words.rest,
          edit.reason ? ' Anything you had not saved is kept in this tab, and comes back when the page is yours again.' : null),
        edit.blockedBy ? avatar(edit.blockedBy.userId || edit.blockedBy.name, edit.blockedBy.name, 'sm') : null,
        blockedExtras(state, actions));
    }
    case 'lost':
      return banner('lost', 'warning',
        h('span', { class: 'banner-text' }, h('strong', null, 'You can no longer edit this page. '), edit.reason || '', ' You can still view it.'),
        h('button', { class: 'button small', 'data-focus-key': 'edit-again', on: { click: actions.retryEdit } }, 'Edit again'));
    case 'missing':
      return banner('lost', 'warning', h('span', null, 'This page no longer exists.'));
    default:
      return banner('neutral', 'clock', h('span', null, edit.message || 'Waiting for the lock server\u2026'));
  }
}

/**
 * @param {string} kind
 * @param {Parameters<typeof icon>[0]} iconName
 * @param {HTMLElement} text what the banner says, which a screen reader hears when it changes
 * @param {...(Node | null)} extras
 */
function banner(kind, iconName, text, ...extras) {
  // The text is announced (views.js announce), not the banner: it is drawn anew on every render.
  if (text) text.setAttribute('data-announce', '');
  return h('div', { class: `banner banner-${kind}`, 'data-testid': 'lock-banner' },
    h('span', { class: 'banner-icon', 'aria-hidden': 'true' }, icon(iconName)), text, ...extras);
}

// ---- fields bound to drafts ---------------------------------------------------------------------

/**
 * A choice of an item of the open configurator, kept in state.drafts under `key` like a bound input.
 * @param {State} state
 * @param {Actions} actions
 * @param {string} key
 * @param {string | number | null | undefined} initial
 * @param {{'aria-label': string, emptyLabel?: string}} attrs
 * @param {number | null | undefined} exceptId an item not to offer (an entry's own item)
 * @param {(() => void) | null} [onChange]
 * @returns {HTMLSelectElement}
 */
function itemSelect(state, actions, key, initial, attrs, exceptId, onChange = null) {
  const { emptyLabel, ...rest } = attrs;
  const view = /** @type {ConfiguratorView} */ (state.view);
  const value = state.drafts.has(key) ? state.drafts.get(key) : (initial ?? '');
  const select = /** @type {HTMLSelectElement} */ (h('select', {
    ...rest,
    'data-field': key,
    on: { change: (/** @type {Event} */ event) => {
      actions.draft(key, /** @type {HTMLSelectElement} */ (event.target).value);
      if (onChange) onChange();
    } },
  },
  h('option', { value: '' }, emptyLabel || 'Choose an item\u2026'),
  itemsInOrder(view).filter(({ item }) => item.id !== exceptId).map(({ item, depth }) => h('option', {
    value: String(item.id),
  }, `${'\u2003'.repeat(depth)}${item.name}`))));
  select.value = String(value);
  return select;
}

/**
 * What a field shows: the user's draft, else `initial`, as text.
 * @param {State} state
 * @param {string} key
 * @param {unknown} initial
 * @returns {string}
 */
function fieldValue(state, key, initial) {
  const value = state.drafts.has(key) ? state.drafts.get(key) : initial;
  return value === undefined || value === null ? '' : String(value);
}

// ---- entries (filters, dependencies, attribute values, variables) --------------------------------

/**
 * @param {State} state
 * @param {Actions} actions
 * @param {EntryKind} kind
 * @param {Entry[]} list
 * @param {Where} where
 */
function entries(state, actions, kind, list, where) {
  const schema = SCHEMAS[kind];
  const editable = state.edit && state.edit.status === 'editing';
  list = list.filter((entry) => !actions.isPendingDelete(`${kind}:${entry.id}`)); // deleted, Undo still possible
  const table = h('div', { class: 'entries', 'data-testid': 'entries' },
    h('div', { class: 'entries-head' }, schema.fields.map((f) => h('div', null, f.label)), h('div', null)),
    list.length === 0 ? h('div', { class: 'entries-empty muted' }, schema.empty) : null,
    list.map((entry) => (editable ? editableRow(state, actions, kind, entry, where) : readonlyRow(state, kind, entry))));
  return h('div', { style: { '--columns': schema.fields.length } }, table, editable ? addRow(state, actions, kind, where) : null);
}

/** @param {State} state @param {Field} field @param {unknown} value */
function display(state, field, value) {
  if (field.type === 'item') {
    const target = /** @type {ConfiguratorView} */ (state.view).items.get(Number(value));
    return target ? target.name : `Item ${value}`;
  }
  return value === '' ? '\u2014' : String(value);
}

/** @param {State} state @param {EntryKind} kind @param {Entry} entry */
function readonlyRow(state, kind, entry) {
  const schema = SCHEMAS[kind];
  return h('div', { class: 'entry-row readonly', 'data-testid': 'entry' },
    schema.fields.map((f) => h('div', { class: ['cell', f.mono && 'mono'] }, display(state, f, entry[f.key]))),
    h('div', null));
}

/**
 * @param {State} state
 * @param {Actions} actions
 * @param {EntryKind} kind
 * @param {Entry} entry
 * @param {Where} where
 */
function editableRow(state, actions, kind, entry, where) {
  const schema = SCHEMAS[kind];
  const prefix = `e:${kind}:${entry.id}:`;
  const save = /** @type {HTMLButtonElement} */ (h('button', { class: 'button small save', type: 'submit', 'data-focus-key': `${prefix}save` }, 'Save'));
  const dirty = () => schema.fields.some((f) => fieldValue(state, prefix + f.key, entry[f.key]) !== String(entry[f.key] ?? ''));
  const refresh = () => { save.disabled = !dirty(); };
  const inputs = schema.fields.map((f) => (f.type === 'item'
    ? itemSelect(state, actions, prefix + f.key, entry[f.key], { 'aria-label': f.label }, where.itemId, refresh)
    : boundInput(state, actions, prefix + f.key, entry[f.key], { 'aria-label': f.label, class: f.mono ? 'mono' : null, placeholder: f.placeholder }, refresh)));
  refresh();
  /** @param {Event} event */
  const submit = (event) => {
    event.preventDefault();
    const fields = collect(state, schema, prefix, entry);
    actions.write((api, token) => (kind === 'variables'
      ? api.updateVariable(entry.id, fields, token)
      : api.updateEntry(kind, entry.id, fields, token)), () => actions.clearDrafts(prefix));
  };
  const remove = () => {
    actions.clearDrafts(prefix);
    actions.deleteWithUndo(`${kind}:${entry.id}`, schema.noun, (api, token) => (kind === 'variables'
      ? api.deleteVariable(entry.id, token)
      : api.deleteEntry(kind, entry.id, token)));
  };
  // Delete sits at the left edge, away from where "Add" was: the row an add creates appears under
  // the pointer, and a double click must not delete it.
  return h('form', { class: 'entry-row', 'data-testid': 'entry', on: { submit } },
    inputs.map((input) => h('div', { class: 'cell' }, input)),
    h('div', { class: 'row-actions' },
      h('button', { class: 'button small ghost danger', type: 'button', title: `Delete this ${schema.noun}`,
        'data-focus-key': `${prefix}delete`, on: { click: remove } }, 'Delete'),
      save));
}

/**
 * The fields of an entry as the user filled them in.
 * @param {State} state
 * @param {Schema} schema
 * @param {string} prefix the drafts' keys start with it
 * @param {Record<string, unknown>} [entry] the entry as it is (none: a new one)
 */
function collect(state, schema, prefix, entry = {}) {
  /** @type {Record<string, string | number | null>} */
  const fields = {};
  for (const f of schema.fields) {
    const raw = fieldValue(state, prefix + f.key, entry[f.key]);
    fields[f.key] = f.type === 'item' ? (raw ? Number(raw) : null) : raw.trim();
  }
  return fields;
}

/** @param {State} state @param {Actions} actions @param {EntryKind} kind @param {Where} where */
function addRow(state, actions, kind, where) {
  const schema = SCHEMAS[kind];
  const prefix = `new:${kind}:${where.itemId || 'c'}:`;
  const inputs = schema.fields.map((f) => (f.type === 'item'
    ? itemSelect(state, actions, prefix + f.key, '', { 'aria-label': f.label }, where.itemId)
    : boundInput(state, actions, prefix + f.key, '', {
      'aria-label': f.label, class: f.mono ? 'mono' : null, placeholder: f.placeholder,
      list: f.suggestions ? `${prefix}${f.key}-suggestions` : null,
    })));
  const suggestions = schema.fields.filter((f) => f.suggestions).map((f) => h('datalist', { id: `${prefix}${f.key}-suggestions` },
    (f.suggestions || []).map((s) => h('option', { value: s }))));
  /** @param {Event} event */
  const submit = (event) => {
    event.preventDefault();
    const fields = collect(state, schema, prefix);
    const missing = schema.fields.find((f) => !f.optional && (fields[f.key] === '' || fields[f.key] === null));
    if (missing) {
      actions.toast(`Please fill in \u201c${missing.label}\u201d.`, 'error');
      return;
    }
    actions.write((api, token) => (kind === 'variables'
      ? api.addVariable(/** @type {ConfiguratorView} */ (state.view).id, fields, token)
      : api.addEntry(/** @type {number} */ (where.itemId), kind, fields, token)), () => actions.clearDrafts(prefix));
  };
  return h('form', { class: 'entry-row add-row', 'data-testid': 'add-entry', on: { submit } },
    inputs.map((input) => h('div', { class: 'cell' }, input)),
    h('div', { class: 'row-actions' },
      h('button', { class: 'button small primary add', type: 'submit', 'data-focus-key': `${prefix}add` }, `Add ${schema.noun}`)),
    suggestions);
}

// ---- structure (the whole configurator) ---------------------------------------------------------

/** @param {State} state @param {Actions} actions */
function structure(state, actions) {
  const view = /** @type {ConfiguratorView} */ (state.view);
  const editable = Boolean(state.edit && state.edit.status === 'editing');
  const nameKey = `cfg:${view.id}:name`;
  const renameForm = h('form', {
    class: 'inline-form',
    on: {
      submit: (/** @type {Event} */ event) => {
        event.preventDefault();
        const name = fieldValue(state, nameKey, view.name).trim();
        if (name && name !== view.name) {
          actions.write((api, token) => api.renameConfigurator(view.id, name, token), () => actions.clearDrafts(nameKey));
        }
      },
    },
  },
  boundInput(state, actions, nameKey, view.name, { 'aria-label': 'Configurator name', disabled: !editable, maxlength: 200 }),
  editable ? h('button', { class: 'button small', type: 'submit' }, 'Rename') : null);

  return h('div', { class: 'structure' },
    h('section', { class: 'card' }, h('h2', null, 'Name'), renameForm),
    h('section', { class: 'card' },
      h('h2', null, 'Items'),
      h('p', { class: 'muted small' }, 'The tree of things a customer chooses from. Each item has its own filters, dependencies and attribute values.'),
      view.roots.length === 0 ? h('p', { class: 'muted' }, 'No items yet.') : null,
      h('div', { class: 'structure-tree', 'data-testid': 'structure-tree' },
        itemsInOrder(view).map(({ item, depth }) => structureRow(state, actions, item, depth, editable))),
      editable ? addItemForm(state, actions) : null));
}

/**
 * @param {State} state
 * @param {Actions} actions
 * @param {ItemView} item
 * @param {number} depth
 * @param {boolean} editable
 */
function structureRow(state, actions, item, depth, editable) {
  const key = `item:${item.id}:name`;
  if (!editable) {
    return h('div', { class: 'structure-row', style: { '--depth': depth } }, h('span', { class: 'tree-glyph' }, '\u2022'), h('span', null, item.name));
  }
  /** @param {Event} event */
  const submit = (event) => {
    event.preventDefault();
    const name = fieldValue(state, key, item.name).trim();
    if (name && name !== item.name) {
      actions.write((api, token) => api.renameItem(item.id, name, token), () => actions.clearDrafts(key));
    }
  };
  const remove = () => {
    const below = item.children.length ? ' and everything below it' : '';
    if (window.confirm(`Delete \u201c${item.name}\u201d${below}?`)) {
      actions.write((api, token) => api.deleteItem(item.id, token));
    }
  };
  const addChild = () => {
    actions.draft('new-item:parent', String(item.id));
    actions.go(location.hash);
    const field = () => /** @type {HTMLElement | null} */ (document.querySelector('[data-field="new-item:name"]'));
    setTimeout(() => field()?.focus(), 0);
  };
  return h('form', { class: 'structure-row editable', style: { '--depth': depth }, on: { submit } },
    h('span', { class: 'tree-glyph' }, item.children.length ? '\u25be' : '\u2022'),
    boundInput(state, actions, key, item.name, { 'aria-label': `Name of ${item.name}`, maxlength: 200 }),
    h('button', { class: 'button small', type: 'submit' }, 'Rename'),
    h('button', { class: 'button small ghost', type: 'button', on: { click: addChild } }, '+ Child'),
    h('button', { class: 'button small ghost danger', type: 'button', on: { click: remove } }, 'Delete'));
}

/** @param {State} state @param {Actions} actions */
function addItemForm(state, actions) {
  const nameKey = 'new-item:name';
  const parentKey = 'new-item:parent';
  /** @param {Event} event */
  const submit = (event) => {
    event.preventDefault();
    const name = fieldValue(state, nameKey, '').trim();
    const parent = fieldValue(state, parentKey, '');
    if (!name) {
      actions.toast('Please give the item a name.', 'error');
      return;
    }
    actions.write((api, token) => api.addItem(/** @type {ConfiguratorView} */ (state.view).id, name, parent ? Number(parent) : null, token),
      () => actions.clearDrafts(nameKey));
  };
  return h('form', { class: 'add-item', 'data-testid': 'add-item', on: { submit } },
    boundInput(state, actions, nameKey, '', { placeholder: 'New item, e.g. Frame', 'aria-label': 'New item name', maxlength: 200 }),
    itemSelect(state, actions, parentKey, '', { 'aria-label': 'Parent item', emptyLabel: 'At the top level' }, null),
    h('button', { class: 'button primary', type: 'submit' }, 'Add item'));
}
