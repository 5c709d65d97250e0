// model.js — the configurator as the demo shows it, and the words it uses for locks.

import { resourceKey } from './editlock-client.js';

/** @typedef {{id: number, name: string, parentItemId: number | null, children: number[],
 *   filters: Entry[], dependencies: Entry[], attributes: Entry[]}} ItemView */
/** @typedef {{id: number} & Record<string, any>} Entry a filter, dependency, attribute value or variable */
/** @typedef {{id: number, name: string, items: Map<number, ItemView>, roots: number[], variables: Entry[]}} ConfiguratorView */
/** @typedef {import('./editlock-client.js').Resource} Resource */

/** @type {Readonly<Record<string, string>>} */
export const PAGE_TITLES = Object.freeze({
  filters: 'Filters',
  dependencies: 'Dependencies',
  attributes: 'Attribute values',
});

/**
 * Turns `GET /api/configurators/{id}` into a flat, indexed tree. Accepts items nested (with
 * `children`) or flat (with `parentItemId`).
 * @param {any} body
 * @returns {ConfiguratorView}
 */
export function normalizeConfigurator(body) {
  /** @type {Map<number, ItemView>} */
  const items = new Map();
  /** @param {any} node @param {number | null} parentId */
  const visit = (node, parentId) => {
    items.set(node.id, {
      id: node.id,
      name: node.name,
      parentItemId: node.parentItemId ?? parentId ?? null,
      children: [],
      filters: sortById(node.filters),
      dependencies: sortById(node.dependencies),
      attributes: sortById(node.attributeValues ?? node.attributes),
    });
    (node.children || []).forEach((/** @type {any} */ child) => visit(child, node.id));
  };
  (body.items || []).forEach((/** @type {any} */ node) => visit(node, null));
  const roots = [];
  for (const item of [...items.values()].sort((a, b) => a.id - b.id)) {
    const parent = item.parentItemId && items.get(item.parentItemId);
    if (parent) {
      parent.children.push(item.id);
    } else {
      roots.push(item.id);
    }
  }
  return { id: body.id, name: body.name, items, roots, variables: sortById(body.variables) };
}

/** @param {Entry[] | undefined} list @returns {Entry[]} */
function sortById(list) {
  return [...(list || [])].sort((a, b) => a.id - b.id);
}

/**
 * The items in tree order, each with its depth.
 * @param {ConfiguratorView} view
 * @returns {{item: ItemView, depth: number}[]}
 */
export function itemsInOrder(view) {
  /** @type {{item: ItemView, depth: number}[]} */
  const out = [];
  /** @param {number} id @param {number} depth */
  const walk = (id, depth) => {
    const item = /** @type {ItemView} */ (view.items.get(id));
    out.push({ item, depth });
    item.children.forEach((child) => walk(child, depth + 1));
  };
  view.roots.forEach((id) => walk(id, 0));
  return out;
}

/**
 * The item and every item below it.
 * @param {ConfiguratorView} view
 * @param {number} itemId
 * @returns {number[]}
 */
export function subtree(view, itemId) {
  /** @type {number[]} */
  const ids = [];
  /** @param {number} id */
  const walk = (id) => {
    ids.push(id);
    (view.items.get(id)?.children || []).forEach(walk);
  };
  walk(itemId);
  return ids;
}

/**
 * The sentences a blocked user reads. When the lock in the way is the page's own, the first is fixed:
 * "Currently edited by <name>." When another lock of theirs blocks the page (docs/protocol.md §2: a page of the
 * configurator blocks its structure, the structure blocks every page), they name what that is: "Currently edited
 * by Tom" on the structure would say Tom edits the structure, when he edits one item page.
 * @param {string} name
 * @param {Resource | null} [blocking] the lock in the way, if known
 * @param {Resource | null} [page] the page that is blocked
 * @param {ConfiguratorView | null} [view]
 */
export function editedByMessage(name, blocking = null, page = null, view = null) {
  if (blocking && page && resourceKey(blocking) !== resourceKey(page)) {
    if (page.type === 'configurator') {
      return {
        headline: `${name} is editing ${pageName(blocking, view)}.`,
        rest: 'The structure can be edited when no one edits a page of this configurator.',
      };
    }
    if (blocking.type === 'configurator') {
      return {
        headline: `${name} is editing the structure of this configurator.`,
        rest: 'You can view this page. It will become editable when they\u2019re done with the structure.',
      };
    }
  }
  return {
    headline: `Currently edited by ${name}.`,
    rest: 'You can view this page. It will become editable when they\u2019re done.',
  };
}

/**
 * A page, in words that name it in a sentence ("Wheel \u203a Dependencies", "the variables").
 * @param {Resource} resource
 * @param {ConfiguratorView | null} view
 */
function pageName(resource, view) {
  if (resource.type === 'configurator') {
    return 'the structure';
  }
  if (resource.type === 'variables') {
    return 'the variables';
  }
  const item = view && view.items.get(/** @type {number} */ (resource.itemId));
  return `${item ? item.name : `item ${resource.itemId}`} \u203a ${PAGE_TITLES[/** @type {string} */ (resource.page)] || resource.page}`;
}

/**
 * Who took a page over from us (docs/protocol.md §13): the asker's name, from their `takeover-requested`,
 * and whether the user handed it over here (else it passed when the consent window ended, or was handed
 * over in another tab).
 * @typedef {{byUserName: string, handedOver: boolean}} TakenOver
 */

/**
 * How long the server keeps the locks of a dropped connection for its resume: its default grace period
 * (`editlock.session.grace-period`). Past it, a page may have gone to someone else.
 */
export const KEPT_AFTER_DROP_MS = 10_000;

/**
 * Why a lock was taken away, in words (lock-lost reasons).
 * @param {string} reason
 * @param {TakenOver | null} [takenOver] for `taken-over`: who asked, and whether the user said yes here
 */
export function lostReasonText(reason, takenOver = null) {
  switch (reason) {
    case 'expired': return 'Your editing session expired, so the page was released.';
    case 'admin': return 'An administrator released your edit lock.';
    case 'idle': return 'You were inactive for a long time, so the page was released for others.';
    case 'replaced': return 'You started restructuring another configurator, so this one was released.';
    case 'disconnect': return 'Your connection was lost for too long, so the page was released.';
    case 'deleted': return 'This was deleted.';
    case 'unlock': return 'You released this page in another tab.';
    case 'taken-over': return takenOverText(takenOver);
    default: return 'Your edit lock was released.';
  }
}

/** @param {TakenOver | null} takenOver */
function takenOverText(takenOver) {
  const who = takenOver ? takenOver.byUserName : 'Someone';
  if (takenOver && takenOver.handedOver) {
    return `You handed this page over to ${who}.`;
  }
  // Not said yes to here: the consent window ended without a "Keep", or another tab of the user handed it
  // over; this tab cannot tell which, so it says only what is true either way.
  return `${who} asked for this page; it passed to them.`;
}

/**
 * The saved value a draft field edits, by the draft's key (as pages.js names them: `e:filters:31:expression`,
 * `cfg:12:name`, `item:5:name`), as `view` has it, in the text an input shows.
 * @param {ConfiguratorView | null} view
 * @param {string} key
 * @returns {string | null | undefined} null: the field edits nothing saved (a new entry, a message);
 *   undefined: what it edits is gone (deleted)
 */
export function savedValue(view, key) {
  const parts = key.split(':');
  const text = (/** @type {unknown} */ value) => (value === undefined || value === null ? '' : String(value));
  if (!view) {
    return null;
  }
  if (parts[0] === 'cfg' && parts.length === 3) {
    return Number(parts[1]) === view.id ? text(view.name) : undefined;
  }
  if (parts[0] === 'item' && parts.length === 3) {
    const item = view.items.get(Number(parts[1]));
    return item ? text(item.name) : undefined;
  }
  if (parts[0] === 'e' && parts.length === 4) {
    const [, kind, id, field] = parts;
    const lists = kind === 'variables' ? [view.variables]
      : [...view.items.values()].map((item) => item[/** @type {'filters' | 'dependencies' | 'attributes'} */ (kind)] || []);
    const entry = lists.flat().find((candidate) => candidate.id === Number(id));
    return entry ? text(entry[field]) : undefined;
  }
  return null;
}

/**
 * The drafts typed over a saved value that is no longer what is saved: someone else saved (or deleted)
 * it meanwhile, and saving the draft would write over that without anyone seeing it.
 * @param {Map<string, string>} bases the saved value each draft was typed over, by the draft's key
 * @param {ConfiguratorView | null} view as it is saved now
 * @returns {string[]} their keys
 */
export function staleDrafts(bases, view) {
  return [...bases].filter(([key, base]) => savedValue(view, key) !== base).map(([key]) => key);
}

/**
 * What a lock covers, in words, for the lock list ("Frame · Filters").
 * @param {Resource} resource
 * @param {ConfiguratorView | null} view
 */
export function describeResource(resource, view) {
  if (resource.type === 'configurator') {
    return 'Whole configurator (restructuring)';
  }
  if (resource.type === 'variables') {
    return 'Variables';
  }
  const item = view && view.items.get(/** @type {number} */ (resource.itemId));
  return `${item ? item.name : `Item ${resource.itemId}`} \u00b7 ${PAGE_TITLES[/** @type {string} */ (resource.page)] || resource.page}`;
}

/**
 * "just now", "3 min ago".
 * @param {string} isoInstant
 */
export function since(isoInstant) {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(isoInstant)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}
