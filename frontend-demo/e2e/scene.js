// The scene an end-to-end test starts from, set over the REST API as a setup user: configurators and their
// items, made before any browser opens them.

import assert from 'node:assert/strict';

/**
 * A demo token for `userId` and a POST that must succeed.
 * @param {string} baseUrl
 * @param {string} [userId]
 * @returns {Promise<{token: string, post: (url: string, body: object) => Promise<any>}>}
 */
export async function apiAs(baseUrl, userId = 'setup') {
  const login = await fetch(`${baseUrl}/api/auth/demo-login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId, name: userId }),
  });
  const { token } = await login.json();
  const post = async (url, body) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body),
    });
    assert.ok(response.ok, `POST ${url} answered ${response.status}`);
    return response.json();
  };
  return { token, post };
}

/**
 * A configurator with one top-level item per name.
 * @param {string} baseUrl
 * @param {string} name
 * @param {string[]} items
 * @returns {Promise<{id: number, hashes: string[], token: string}>} the hash of each item's filters page, in order
 */
export async function configuratorWithItems(baseUrl, name, items) {
  const { token, post } = await apiAs(baseUrl);
  const configurator = await post('/api/configurators', { name });
  const hashes = [];
  for (const itemName of items) {
    const item = await post(`/api/configurators/${configurator.id}/items`, { name: itemName });
    hashes.push(`#/c/${configurator.id}/items/${item.id}/filters`);
  }
  return { id: configurator.id, hashes, token };
}
