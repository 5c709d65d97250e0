// session.js — the demo's sign-in, kept for the browser: a link opened in a new tab is signed in
// too (each tab still opens its own socket). It ends when the token does, or on sign-out.

import { tokenExpiry as readExpiry } from './editlock-client.js';

const KEY = 'editlock.demo.session';
/** Signed in this long at most when the token's own expiry cannot be read. */
const FALLBACK_LIFETIME_MS = 12 * 60 * 60 * 1000;

/**
 * When the JWT expires (its `exp`), in ms since the epoch; null if it cannot be read.
 * @param {string} token
 * @returns {number | null}
 */
export function tokenExpiry(token) {
  const expiresAt = readExpiry(token);
  return Number.isFinite(expiresAt) ? expiresAt : null;
}

/**
 * The signed-in user of this browser, or null (never signed in, signed out, or expired).
 * @param {Storage} storage localStorage
 * @param {number} [now]
 */
export function loadSession(storage, now = Date.now()) {
  let saved;
  try {
    saved = JSON.parse(storage.getItem(KEY) || 'null');
  } catch {
    saved = null;
  }
  if (!saved || !saved.auth || typeof saved.expiresAt !== 'number' || saved.expiresAt <= now) {
    forgetSession(storage);
    return null;
  }
  return saved.auth;
}

/** @param {Storage} storage @param {{token: string}} auth */
export function saveSession(storage, auth, now = Date.now()) {
  const expiresAt = tokenExpiry(auth.token) ?? now + FALLBACK_LIFETIME_MS;
  try {
    storage.setItem(KEY, JSON.stringify({ auth, expiresAt }));
  } catch {
    // Storage blocked: this tab stays signed in, others ask again.
  }
}

/** @param {Storage} storage */
export function forgetSession(storage) {
  try {
    storage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}

/**
 * Whether a `storage` event says the sign-in of this browser ended (signed out in another tab).
 * @param {StorageEvent} event
 */
export function signedOutElsewhere(event) {
  return event.key === KEY && !event.newValue;
}
