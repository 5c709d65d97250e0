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
 * Remembers which field had focus (by its data-field key) so that a re-render can restore it.
 * @param {HTMLElement} root
 * @returns {() => void} puts the focus back
 */
export function rememberFocus(root) {
  const active = /** @type {HTMLInputElement | null} */ (document.activeElement);
  if (!active || !root.contains(active) || !active.dataset.field) {
    return () => {};
  }
  const key = active.dataset.field;
  const start = active.selectionStart;
  const end = active.selectionEnd;
  return () => {
    const again = /** @type {HTMLInputElement | null} */ (root.querySelector(`[data-field="${CSS.escape(key)}"]`));
    if (again && !again.disabled) {
      again.focus();
      if (typeof start === 'number' && typeof again.setSelectionRange === 'function') {
        try {
          again.setSelectionRange(start, end);
        } catch {
          // not a text field
        }
      }
    }
  };
}
