// dom.js — building the page from DOM nodes. Every string a user typed goes in as text
// (text nodes and textContent), never as HTML.

/**
 * Creates an element. `attrs`: `class`, `dataset` (object), `on` (object of listeners), `style`
 * (object), booleans (`disabled`, `hidden`, …) and any other attribute. Children: nodes, strings
 * (become text nodes), arrays, and null/false (skipped).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name === 'class') {
      element.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    } else if (name === 'dataset') {
      Object.assign(element.dataset, value);
    } else if (name === 'on') {
      for (const [type, listener] of Object.entries(value)) {
        element.addEventListener(type, listener);
      }
    } else if (name === 'style') {
      for (const [property, setting] of Object.entries(value)) {
        if (property.startsWith('--')) {
          element.style.setProperty(property, String(setting));
        } else {
          element.style[/** @type {any} */ (property)] = setting;
        }
      }
    } else if (name === 'value') {
      element.setAttribute('value', String(value)); // also as an attribute, so that it shows in the DOM
      /** @type {HTMLInputElement} */ (element).value = value;
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} element
 * @param {any[]} children
 */
function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(element, child);
    } else if (child instanceof Node) {
      element.appendChild(child);
    } else {
      element.appendChild(document.createTextNode(String(child)));
    }
  }
}

/**
 * Replaces the children of `element`.
 * @param {Element} element
 * @param {...any} children
 */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

const AVATAR_HUES = [210, 265, 330, 20, 150, 185, 45, 295];

/**
 * A round avatar with the user's initials, colored by their id.
 * @param {string} userId
 * @param {string} name
 * @param {'xs' | 'sm' | 'md'} [size]
 */
export function avatar(userId, name, size = 'md') {
  let hash = 0;
  for (const char of String(userId)) {
    hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  }
  const hue = AVATAR_HUES[hash % AVATAR_HUES.length];
  const initials = String(name).trim().split(/\s+/).slice(0, 2).map((part) => part[0]).join('').toUpperCase();
  return h('span', {
    class: `avatar avatar-${size}`,
    style: { background: `hsl(${hue} 65% 45%)` },
    title: name,
    'aria-hidden': 'true',
  }, initials || '?');
}

/**
 * Where the focus is: the key of the focused element (its `data-field`, or for a button or link its
 * `data-focus-key`) and the text selected in it. A redraw builds every element anew, so the key is what finds
 * the same control again.
 * @typedef {{key: string, start: number | null, end: number | null}} FocusSpot
 */

/**
 * @param {HTMLElement} root
 * @returns {FocusSpot | null} null: the focus is outside `root`, or on nothing a redraw can find again
 */
export function focusSpot(root) {
  const active = /** @type {HTMLInputElement | null} */ (document.activeElement);
  const key = active && root.contains(active) ? active.dataset.field || active.dataset.focusKey : null;
  if (!active || !key) {
    return null;
  }
  const selected = typeof active.selectionStart === 'number';
  return { key, start: selected ? active.selectionStart : null, end: selected ? active.selectionEnd : null };
}

/**
 * Puts the focus on the control of `spot`, if it is there and enabled.
 * @param {HTMLElement} root
 * @param {FocusSpot} spot
 * @returns {boolean} whether it did
 */
export function refocus(root, spot) {
  const key = CSS.escape(spot.key);
  const again = /** @type {HTMLInputElement | null} */ (root.querySelector(`[data-field="${key}"], [data-focus-key="${key}"]`));
  if (!again || again.disabled) {
    return false;
  }
  again.focus();
  if (spot.start !== null && typeof again.setSelectionRange === 'function') {
    try {
      again.setSelectionRange(spot.start, spot.end);
    } catch {
      // not a text field
    }
  }
  return true;
}

/**
 * Redraws `root` without losing the user's place, and hands the focus to a panel that wants an answer: an
 * element with `data-takes-focus` (its value tells one question from the next) gets the focus on its
 * `[data-autofocus]` control when it appears, so that a keyboard user can answer at once. It does not trap
 * the focus: Tab leads on into the page. While it is shown, a control used in the page that is gone after the
 * redraw hands the focus back to it. When it goes while the focus is still in it (it was answered), the focus goes
 * back to where it was when the panel appeared, instead of to the top of the page.
 * @param {HTMLElement} root
 * @returns {(draw: () => void) => void} draws with `draw`, keeping the focus
 */
export function createFocusKeeper(root) {
  /** @type {string | null} */
  let panelShown = null;
  /** @type {FocusSpot | null} */
  let focusBeforePanel = null;
  return (draw) => {
    const spot = focusSpot(root);
    const inPanel = Boolean(document.activeElement && document.activeElement.closest('[data-takes-focus]'));
    draw();
    const kept = spot !== null && refocus(root, spot);
    const panel = root.querySelector('[data-takes-focus]');
    const shown = panel ? panel.getAttribute('data-takes-focus') : null;
    const answer = /** @type {HTMLElement | null} */ (panel && panel.querySelector('[data-autofocus]'));
    // Where the focus goes when the control it was on is gone: the page's heading, never the document's body,
    // from where the next Tab would start at the top of the page. The heading has a focus key too, so that it
    // keeps the focus through the redraws that follow (a countdown's, every second).
    const heading = /** @type {HTMLElement | null} */ (root.querySelector('[data-focus-fallback]'));
    if (shown === panelShown) {
      if (spot && !kept) {
        // The control used is gone (a Save done is disabled): the question, if one is shown, is what comes next.
        (answer || heading)?.focus();
      }
      return;
    }
    if (!panel && inPanel && !(focusBeforePanel && refocus(root, focusBeforePanel))) {
      heading?.focus();
    }
    if (panelShown === null) {
      focusBeforePanel = spot; // not when one question follows another: the place to go back to is still the first one's
    }
    panelShown = shown;
    answer?.focus();
  };
}
