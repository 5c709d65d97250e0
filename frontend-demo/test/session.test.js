// The demo's sign-in kept for the browser: expiry from the token, sign-out, bad data.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSession, saveSession, forgetSession, signedOutElsewhere, tokenExpiry } from '../session.js';

class MemoryStorage {
  constructor() { this.values = new Map(); }
  getItem(key) { return this.values.has(key) ? this.values.get(key) : null; }
  setItem(key, value) { this.values.set(key, String(value)); }
  removeItem(key) { this.values.delete(key); }
}

const jwt = (payload) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

describe('demo session', () => {
  it('keeps the sign-in until the token expires', () => {
    const storage = new MemoryStorage();
    const auth = { token: jwt({ sub: 'demo-sara', exp: 2_000 }), userId: 'demo-sara', name: 'Sara', admin: false };
    saveSession(storage, auth, 1_000_000);
    assert.equal(tokenExpiry(auth.token), 2_000_000);
    assert.deepEqual(loadSession(storage, 1_999_999), auth);
    assert.equal(loadSession(storage, 2_000_000), null, 'an expired sign-in is not used');
    assert.equal(storage.getItem('editlock.demo.session'), null, 'and it is removed');
  });

  it('falls back to 12 h when the token has no readable expiry, and forgets on sign-out', () => {
    const storage = new MemoryStorage();
    const auth = { token: 'not-a-jwt', userId: 'demo-tom', name: 'Tom', admin: false };
    saveSession(storage, auth, 0);
    assert.deepEqual(loadSession(storage, 12 * 3600 * 1000 - 1), auth);
    forgetSession(storage);
    assert.equal(loadSession(storage, 1), null);
  });

  it('ignores what it cannot read', () => {
    const storage = new MemoryStorage();
    storage.setItem('editlock.demo.session', '{nope');
    assert.equal(loadSession(storage), null);
  });

  it('notices a sign-out in another tab', () => {
    assert.equal(signedOutElsewhere({ key: 'editlock.demo.session', newValue: null }), true);
    assert.equal(signedOutElsewhere({ key: 'editlock.demo.session', newValue: '{}' }), false);
    assert.equal(signedOutElsewhere({ key: 'other', newValue: null }), false);
  });
});
