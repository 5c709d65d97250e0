// views.js — the shell of the demo: sign-in, top bar, sidebar with the live item tree, home and
// overview. The editable pages are in pages.js.

import { h, replace, avatar } from './dom.js';
import { PAGE_TITLES, itemsInOrder, describeResource, since } from './model.js';
import { renderPage } from './pages.js';
import { lockChip, emptyState, boundInput } from './widgets.js';
import { takeoverPanel } from './handover.js';
import { icon } from './icons.js';

/** @typedef {import('./app/store.js').State} State */
/** @typedef {ReturnType<typeof import('./app/actions.js').createActions>} Actions */
/** @typedef {import('./editlock-client.js').Lock} Lock */
/** @typedef {import('./editlock-client.js').Page} Page */
/** @typedef {import('./model.js').ItemView} ItemView */
/** @typedef {NonNullable<State['auth']>} Auth */

/**
 * Draws the whole app from `state`.
 * @param {HTMLElement} root
 * @param {State} state
 * @param {Actions} actions
 */
export function renderApp(root, state, actions) {
  document.title = title(state);
  drawToasts(toastRegion(root), state);
  if (!state.auth) {
    replace(root, signIn(state, actions));
    announce(statusRegion(root), root);
    return;
  }
  replace(root,
    h('div', { class: 'shell' },
      topBar(state, actions),
      h('div', { class: 'workspace' },
        sidebar(state),
        // The take-over panel first in the main area: Tab from it leads into the page it is about.
        h('main', { class: 'main', id: 'main' }, takeoverPanel(state, actions), mainContent(state, actions)))));
  announce(statusRegion(root), root);
}

/** @param {State} state */
function title(state) {
  const product = 'Configurator Studio';
  const view = state.view;
  const route = state.route;
  if (!state.auth || !route.configuratorId || !view) {
    return product;
  }
  const item = route.view === 'item' && view.items.get(/** @type {number} */ (route.itemId));
  const page = item ? `${item.name} \u00b7 ${PAGE_TITLES[/** @type {Page} */ (route.page)]}`
    : route.view === 'structure' ? 'Structure' : route.view === 'variables' ? 'Variables' : null;
  return [page, view.name, product].filter(Boolean).join(' \u2014 ');
}

// ---- sign-in ------------------------------------------------------------------------------------

/** @param {State} state @param {Actions} actions */
function signIn(state, actions) {
  const name = boundInput(state, actions, 'signin:name', '', {
    id: 'signin-name', name: 'name', autocomplete: 'username', placeholder: 'e.g. Sara', maxlength: 60, required: true,
  });
  const admin = /** @type {HTMLInputElement} */ (h('input', {
    type: 'checkbox', id: 'signin-admin', checked: state.drafts.get('signin:admin') === 'yes',
    on: { change: (/** @type {Event} */ event) => actions.draft('signin:admin', /** @type {HTMLInputElement} */ (event.target).checked ? 'yes' : 'no') },
  }));
  /** @param {Event} event */
  const submit = (event) => {
    event.preventDefault();
    actions.signIn(name.value, admin.checked);
  };
  const pick = (/** @type {string} */ person) => h('button', {
    type: 'button', class: 'chip-button',
    on: { click: () => { actions.draft('signin:name', person); name.value = person; name.focus(); } },
  }, avatar(`demo-${person.toLowerCase()}`, person, 'sm'), person);
  return h('div', { class: 'signin' },
    h('div', { class: 'signin-card' },
      h('div', { class: 'brand brand-large' }, logo(), h('span', null, 'Configurator Studio')),
      h('p', { class: 'lead' }, 'Build product configurators together. While someone edits a page, everyone else sees who it is \u2014 and nobody\u2019s work gets overwritten.'),
      h('form', { class: 'form', on: { submit } },
        h('label', { for: 'signin-name' }, 'Your name'),
        name,
        h('div', { class: 'quick-pick' }, h('span', { class: 'muted' }, 'Demo users:'), ['Sara', 'Omar', 'Lena'].map(pick)),
        h('label', { class: 'checkbox' }, admin, 'Administrator (may release other people\u2019s locks)'),
        h('button', { type: 'submit', class: 'button primary wide', disabled: state.busy }, state.busy ? 'Signing in\u2026' : 'Sign in')),
      h('p', { class: 'fine-print' }, 'Demo sign-in: any name works. Open a second browser as another person to see edit locks live.')));
}

/** @returns {SVGSVGElement} the app's logo */
function logo() {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 32 32');
  svg.setAttribute('class', 'logo');
  svg.setAttribute('aria-hidden', 'true');
  /** @type {Array<[string, Record<string, string | number>]>} */
  const shapes = [
    ['rect', { x: 3, y: 3, width: 26, height: 26, rx: 7, fill: 'currentColor' }],
    ['rect', { x: 9, y: 15, width: 14, height: 9, rx: 2, fill: '#fff' }],
    ['path', { d: 'M12 15v-3a4 4 0 0 1 8 0v3', fill: 'none', stroke: '#fff', 'stroke-width': 2.4, 'stroke-linecap': 'round' }],
  ];
  for (const [tag, attrs] of shapes) {
    const shape = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.entries(attrs).forEach(([name, value]) => shape.setAttribute(name, String(value)));
    svg.appendChild(shape);
  }
  return svg;
}

// ---- top bar ------------------------------------------------------------------------------------

/** @type {Record<string, [label: string, tone: string]>} */
const CONNECTION = {
  idle: ['Connecting\u2026', 'pending'],
  connecting: ['Connecting\u2026', 'pending'],
  open: ['Live', 'live'],
  reconnecting: ['Reconnecting\u2026', 'pending'],
  closed: ['Offline', 'down'],
};

/** @param {State} state @param {Actions} actions */
function topBar(state, actions) {
  const auth = /** @type {Auth} */ (state.auth);
  const [label, tone] = CONNECTION[state.connection] || CONNECTION.idle;
  return h('header', { class: 'topbar' },
    h('a', { class: 'brand', href: '#/' }, logo(), h('span', null, 'Configurator Studio')),
    h('div', { class: 'topbar-right' },
      h('span', { class: `connection ${tone}`, 'data-testid': 'connection', title: 'Live connection to the lock server' },
        h('span', { class: 'dot' }), label),
      h('span', { class: 'user' }, avatar(auth.userId, auth.name), h('span', { class: 'user-name' }, auth.name),
        auth.admin ? h('span', { class: 'badge' }, 'Admin') : null),
      h('button', { class: 'button ghost small', 'data-focus-key': 'sign-out', on: { click: actions.signOut } }, 'Sign out')));
}

// ---- sidebar ------------------------------------------------------------------------------------

/** @param {State} state */
function sidebar(state) {
  if (!state.route.configuratorId) {
    return h('aside', { class: 'sidebar' },
      h('div', { class: 'sidebar-section' },
        h('div', { class: 'sidebar-title' }, 'Workspace'),
        h('a', { class: 'nav-link active', href: '#/' }, 'All configurators')),
      h('div', { class: 'sidebar-help' },
        h('strong', null, 'How editing works'),
        h('p', null, 'Opening a page reserves it for you. Others can look at it while you edit, and it frees itself when you leave.')));
  }
  const view = state.view;
  const cid = state.route.configuratorId;
  if (!view && state.viewError) {
    return h('aside', { class: 'sidebar', 'data-testid': 'sidebar' },
      h('a', { class: 'back-link', href: '#/' }, '\u2190 All configurators'),
      h('div', { class: 'sidebar-heading' }, 'Not found'),
      h('p', { class: 'muted small pad' }, 'There is nothing to show here. Pick a configurator from the list.'));
  }
  const me = /** @type {Auth} */ (state.auth).userId;
  const locks = state.locks;
  const wholeLock = locks.find((lock) => lock.resource.type === 'configurator');
  const variablesLock = locks.find((lock) => lock.resource.type === 'variables');
  return h('aside', { class: 'sidebar', 'data-testid': 'sidebar' },
    h('a', { class: 'back-link', href: '#/' }, '\u2190 All configurators'),
    h('div', { class: 'sidebar-heading' }, view ? view.name : '\u2026'),
    wholeLock && wholeLock.ownerUserId !== me
      ? h('div', { class: 'sidebar-notice' }, icon('lock'), ' ', h('strong', null, wholeLock.ownerUserName), ' is restructuring this configurator.')
      : null,
    h('nav', { class: 'sidebar-section' },
      navLink(state, `#/c/${cid}`, 'Overview', state.route.view === 'overview', null),
      navLink(state, `#/c/${cid}/structure`, 'Structure', state.route.view === 'structure', wholeLock),
      navLink(state, `#/c/${cid}/variables`, 'Variables', state.route.view === 'variables', variablesLock)),
    h('div', { class: 'sidebar-section tree', 'data-testid': 'tree' },
      h('div', { class: 'sidebar-title' }, 'Items',
        h('a', { class: 'sidebar-action', href: `#/c/${cid}/structure`, title: 'Add or move items' }, '+ Add')),
      view && view.roots.length === 0 ? h('p', { class: 'muted small pad' }, 'No items yet.') : null,
      view ? itemsInOrder(view).map(({ item, depth }) => treeRow(state, item, depth)) : h('p', { class: 'muted small pad' }, 'Loading\u2026')));
}

/**
 * @param {State} state
 * @param {string} href
 * @param {string} label
 * @param {boolean} active
 * @param {Lock | undefined | null} lock
 */
function navLink(state, href, label, active, lock) {
  return h('a', { class: ['nav-link', active && 'active'], href, 'data-focus-key': `nav:${href}` },
    h('span', null, label),
    lock ? lockChip(state, lock, null) : null);
}

/** @param {State} state @param {ItemView} item @param {number} depth */
function treeRow(state, item, depth) {
  const route = state.route;
  const active = route.view === 'item' && route.itemId === item.id;
  const itemLocks = state.locks.filter((lock) => lock.resource.itemId === item.id);
  return h('div', {
    class: ['tree-row', active && 'active'],
    style: { '--depth': depth },
    'data-testid': 'tree-item',
    'data-item-name': item.name,
  },
  h('a', { class: 'tree-link', href: `#/c/${route.configuratorId}/items/${item.id}/${active ? route.page : 'filters'}`,
    'data-focus-key': `tree:${item.id}` },
    h('span', { class: 'tree-glyph', 'aria-hidden': 'true' }, item.children.length ? '\u25be' : '\u2022'),
    h('span', { class: 'tree-name' }, item.name)),
  itemLocks.length
    ? h('div', { class: 'tree-locks' }, itemLocks.map((lock) => lockChip(state, lock, PAGE_TITLES[/** @type {Page} */ (lock.resource.page)])))
    : null);
}

// ---- main area ----------------------------------------------------------------------------------

/** @param {State} state @param {Actions} actions */
function mainContent(state, actions) {
  const route = state.route;
  if (route.view === 'home') {
    return home(state, actions);
  }
  if (state.viewError) {
    return h('div', { class: 'content' }, emptyState('Not found', state.viewError,
      h('a', { class: 'button primary', href: '#/' }, 'Back to all configurators'), 'search'));
  }
  if (!state.view) {
    return state.viewNotice && !state.viewNotice.retrying
      ? h('div', { class: 'content' }, emptyState('Could not load this configurator', state.viewNotice.message,
        tryAgainButton(actions, 'button primary'), 'warning'))
      : h('div', { class: 'loading' }, 'Loading\u2026');
  }
  return [viewNotice(state, actions), route.view === 'overview' ? overview(state, actions) : renderPage(state, actions)];
}

/**
 * Says that the configurator shown could not be read again, while what was read before stays on screen.
 * @param {State} state
 * @param {Actions} actions
 */
function viewNotice(state, actions) {
  const notice = state.viewNotice;
  if (!notice) {
    return null;
  }
  return h('div', { class: 'content view-notice-row' },
    h('div', { class: 'banner banner-lost', 'data-testid': 'view-notice' },
      h('span', { class: 'banner-icon', 'aria-hidden': 'true' }, icon('warning')),
      h('span', { class: 'banner-text', 'data-announce': '' }, h('strong', null, 'Could not load the latest version of this configurator. '),
        notice.message, notice.retrying
          ? ' Trying again\u2026'
          : ' What you see may be out of date; what you typed is kept.'),
      notice.retrying ? null : tryAgainButton(actions, 'button small')));
}

/** @param {Actions} actions @param {string} classes */
function tryAgainButton(actions, classes) {
  return h('button', { class: classes, 'data-focus-key': 'reload-configurator', on: { click: actions.reloadConfigurator } }, 'Try again');
}

/** @param {State} state @param {Actions} actions */
function home(state, actions) {
  const name = boundInput(state, actions, 'new-configurator:name', '', {
    id: 'new-configurator-name', placeholder: 'e.g. Mountain bike', maxlength: 200, 'aria-label': 'Name of the new configurator',
  });
  /** @param {Event} event */
  const create = async (event) => {
    event.preventDefault();
    if (name.value.trim()) {
      if (await actions.createConfigurator(name.value)) {
        actions.clearDrafts('new-configurator:');
      }
    } else {
      name.focus();
    }
  };
  const list = state.configurators;
  return h('div', { class: 'content' },
    h('div', { class: 'page-header' },
      h('div', null, h('h1', { tabindex: '-1', 'data-focus-fallback': true, 'data-focus-key': 'heading' }, 'Configurators'), h('p', { class: 'muted' }, 'Every product you can configure. Open one to edit its items, rules and variables.'))),
    h('form', { class: 'card create-card', on: { submit: create } },
      h('div', { class: 'create-row' },
        name,
        h('button', { type: 'submit', class: 'button primary' }, 'New configurator'))),
    list === null ? h('p', { class: 'muted' }, 'Loading\u2026')
      : list.length === 0 ? emptyState('No configurators yet', 'Create the first one above: give it a name, then add its items.')
        : h('div', { class: 'card-grid' }, [...list].sort((a, b) => b.id - a.id).map((c) => h('a', {
          class: 'card configurator-card', href: `#/c/${c.id}`, 'data-testid': 'configurator-card',
        },
        h('div', { class: 'card-title' }, c.name),
        h('div', { class: 'muted small' }, c.createdAt ? `Created ${new Date(c.createdAt).toLocaleDateString()}` : `#${c.id}`)))));
}

/** @param {State} state @param {Actions} actions */
function overview(state, actions) {
  const view = /** @type {import('./model.js').ConfiguratorView} */ (state.view);
  const auth = /** @type {Auth} */ (state.auth);
  const cid = view.id;
  const me = auth.userId;
  const itemCount = view.items.size;
  const entryCount = [...view.items.values()].reduce((n, item) => n + item.filters.length + item.dependencies.length + item.attributes.length, 0);
  return h('div', { class: 'content' },
    h('div', { class: 'page-header' },
      h('div', null, h('div', { class: 'eyebrow' }, 'Configurator'), h('h1', { tabindex: '-1', 'data-focus-fallback': true, 'data-focus-key': 'heading' }, view.name)),
      h('div', { class: 'header-actions' },
        h('a', { class: 'button', href: `#/c/${cid}/variables` }, 'Variables'),
        h('a', { class: 'button primary', href: `#/c/${cid}/structure` }, 'Edit structure'))),
    h('div', { class: 'stats' },
      stat(itemCount, itemCount === 1 ? 'item' : 'items'),
      stat(entryCount, 'rules and values'),
      stat(view.variables.length, view.variables.length === 1 ? 'variable' : 'variables'),
      stat(state.locks.length, state.locks.length === 1 ? 'page being edited' : 'pages being edited')),
    h('section', { class: 'card' },
      h('h2', null, 'Editing right now'),
      state.locks.length === 0
        ? h('p', { class: 'muted' }, 'Nobody is editing this configurator. Pick an item in the tree to start.')
        : h('ul', { class: 'lock-list' }, state.locks.map((lock) => h('li', null,
          avatar(lock.ownerUserId, lock.ownerUserName),
          h('div', { class: 'lock-list-text' },
            h('strong', null, lock.ownerUserId === me ? 'You' : lock.ownerUserName),
            h('span', { class: 'muted' }, ` \u00b7 ${describeResource(lock.resource, view)}`),
            h('div', { class: 'muted small' }, `since ${since(lock.acquiredAt)}`)),
          auth.admin && lock.ownerUserId !== me
            ? h('button', { class: 'button small ghost', on: { click: () => actions.breakLock(lock) } }, 'Release')
            : null)))),
    itemCount === 0
      ? emptyState('No items yet', 'Open the structure to add the first items of this product.',
        h('a', { class: 'button primary', href: `#/c/${cid}/structure` }, 'Add items'))
      : null);
}

/** @param {number} value @param {string} label */
function stat(value, label) {
  return h('div', { class: 'stat' }, h('div', { class: 'stat-value' }, String(value)), h('div', { class: 'stat-label' }, label));
}

/**
 * The toasts' live region: one element for the page's whole life, beside the root that every render draws
 * anew, for a screen reader announces what is added to a live region that was there before, not one inserted
 * with its text already in it.
 * @param {HTMLElement} root
 * @returns {HTMLElement}
 */
function toastRegion(root) {
  let region = /** @type {HTMLElement | null} */ (document.querySelector('.toasts'));
  if (!region) {
    region = h('div', { class: 'toasts', 'aria-live': 'polite' });
    root.after(region);
  }
  return region;
}

/**
 * The page's status line for screen readers (the lock banner, a failed read), in a live region kept for the
 * page's whole life like the toasts': the banners are drawn anew on every render (a countdown renders every
 * second), and a live region drawn anew is announced again, or not at all.
 * @param {HTMLElement} root
 * @returns {HTMLElement}
 */
function statusRegion(root) {
  let region = /** @type {HTMLElement | null} */ (document.querySelector('[data-testid=status-announcer]'));
  if (!region) {
    region = h('div', { class: 'visually-hidden', role: 'status', 'data-testid': 'status-announcer' });
    root.after(region);
  }
  return region;
}

/**
 * Puts what the drawn page marks `data-announce` (the attribute's text, else the element's) into the status
 * region, touching it only when that changed: a screen reader announces each change, once.
 * @param {HTMLElement} region
 * @param {HTMLElement} root
 */
function announce(region, root) {
  const text = [...root.querySelectorAll('[data-announce]')]
    .map((element) => element.getAttribute('data-announce') || element.textContent || '')
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' ');
  if (region.textContent !== text) {
    region.textContent = text;
  }
}

/**
 * The newest three toasts in their region: one already shown stays the same element (so it is not
 * announced again, and a focused Undo keeps the focus); a new one is added, and slides in.
 * @param {HTMLElement} region
 * @param {State} state
 */
function drawToasts(region, state) {
  const shown = new Map([...region.children].map((element) => [/** @type {HTMLElement} */ (element).dataset.toastId, element]));
  const wanted = state.toasts.slice(-3);
  const elements = wanted.map((t) => shown.get(String(t.id)) || h('div', {
    class: ['toast', t.kind, 'fresh'], role: t.kind === 'error' ? 'alert' : 'status', 'data-testid': 'toast', 'data-toast-id': String(t.id),
  },
  t.kind === 'success' ? icon('check') : null,
  h('span', { class: 'toast-text' }, t.text),
  t.action ? h('button', { class: 'toast-action', type: 'button', 'data-focus-key': `toast:${t.id}`, on: { click: t.action.run } },
    t.action.label) : null));
  for (const element of [...region.children]) {
    if (!elements.includes(element)) {
      element.remove();
    }
  }
  // In order, touching only what is not in its place yet: a toast moved in the DOM could be announced again.
  elements.forEach((element, i) => {
    if (region.children[i] !== element) {
      region.insertBefore(element, region.children[i] || null);
    }
  });
}
