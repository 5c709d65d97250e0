// api.js — the REST API (docs/protocol.md §8) as the demo uses it.

/** A REST call that did not succeed; `status` is the HTTP status, `body` its JSON body if any. */
export class ApiError extends Error {
  constructor(status, body, message) {
    super(message || (body && body.message) || `The server answered ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body || {};
  }
}

/** The URL segment of an item page's entries. */
export const PAGE_COLLECTION = Object.freeze({
  filters: 'filters',
  dependencies: 'dependencies',
  attributes: 'attribute-values',
});

/** Signs in as a demo user. @returns {Promise<string>} the token */
export async function demoLogin(userId, name, roles = []) {
  const response = await fetch('/api/auth/demo-login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userId, name, roles }),
  });
  const body = await readBody(response);
  if (!response.ok) {
    throw new ApiError(response.status, body, response.status === 404
      ? 'Demo sign-in is switched off on this server.'
      : body.message);
  }
  return body.token;
}

/** The REST API, called as one signed-in user. */
export class Api {
  /** @param {() => string} token */
  constructor(token) {
    this.token = token;
  }

  /** Every configurator, page after page (the server answers a bounded page at a time). */
  async listConfigurators() {
    const all = [];
    for (;;) {
      const after = all.length ? all[all.length - 1].id : 0;
      const page = await this.call('GET', `/api/configurators?after=${after}`);
      if (page.length === 0) {
        return all;
      }
      all.push(...page);
    }
  }

  configurator(id) {
    return this.call('GET', `/api/configurators/${id}`);
  }

  createConfigurator(name) {
    return this.call('POST', '/api/configurators', { name });
  }

  renameConfigurator(id, name, lockToken) {
    return this.call('PATCH', `/api/configurators/${id}`, { name }, lockToken);
  }

  addItem(configuratorId, name, parentItemId, lockToken) {
    return this.call('POST', `/api/configurators/${configuratorId}/items`, { name, parentItemId: parentItemId || null }, lockToken);
  }

  renameItem(itemId, name, lockToken) {
    return this.call('PATCH', `/api/items/${itemId}`, { name }, lockToken);
  }

  deleteItem(itemId, lockToken) {
    return this.call('DELETE', `/api/items/${itemId}`, undefined, lockToken);
  }

  /** @param {'filters'|'dependencies'|'attributes'} page */
  addEntry(itemId, page, fields, lockToken) {
    return this.call('POST', `/api/items/${itemId}/${PAGE_COLLECTION[page]}`, fields, lockToken);
  }

  updateEntry(page, entryId, fields, lockToken) {
    return this.call('PATCH', `/api/${PAGE_COLLECTION[page]}/${entryId}`, fields, lockToken);
  }

  deleteEntry(page, entryId, lockToken) {
    return this.call('DELETE', `/api/${PAGE_COLLECTION[page]}/${entryId}`, undefined, lockToken);
  }

  addVariable(configuratorId, fields, lockToken) {
    return this.call('POST', `/api/configurators/${configuratorId}/variables`, fields, lockToken);
  }

  updateVariable(variableId, fields, lockToken) {
    return this.call('PATCH', `/api/variables/${variableId}`, fields, lockToken);
  }

  deleteVariable(variableId, lockToken) {
    return this.call('DELETE', `/api/variables/${variableId}`, undefined, lockToken);
  }

  async call(method, path, body, lockToken) {
    const headers = { Authorization: `Bearer ${this.token()}`, Accept: 'application/json' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    if (lockToken !== undefined && lockToken !== null) {
      headers['Lock-Token'] = String(lockToken);
    }
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiError(0, {}, 'The server cannot be reached. Check your connection.');
    }
    const parsed = await readBody(response);
    if (!response.ok) {
      throw new ApiError(response.status, parsed);
    }
    return parsed;
  }
}

async function readBody(response) {
  const text = await response.text();
  if (!text) {
    return {};
  }
  try {
    return JSON.parse(text);
  } catch {
    return {}; // not JSON (a proxy's error page): the status says enough
  }
}
