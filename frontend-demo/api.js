// api.js — the REST API (docs/protocol.md §8) as the demo uses it.

/** A REST call that did not succeed; `status` is the HTTP status, `body` its JSON body if any. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {any} body
   * @param {string} [message]
   */
  constructor(status, body, message) {
    super(message || (body && body.message) || `The server answered ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body || {};
  }
}

/** @typedef {import('./editlock-client.js').Page} Page */
/** @typedef {number | null | undefined} LockToken the fencing token of the page's lock */
/** @typedef {{id: number, name: string, createdAt?: string, createdBy?: string}} ConfiguratorSummary one configurator of the list */

/** The URL segment of an item page's entries. */
export const PAGE_COLLECTION = Object.freeze({
  filters: 'filters',
  dependencies: 'dependencies',
  attributes: 'attribute-values',
});

/**
 * Signs in as a demo user.
 * @param {string} userId
 * @param {string} name
 * @param {string[]} [roles]
 * @returns {Promise<string>} the token
 */
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

/**
 * Answers after which a create may have happened without the client learning of it: the store did
 * not answer (503), the first try is still running (409), or the answer was lost (0).
 */
const CREATE_OUTCOME_UNKNOWN = new Set([0, 409, 503]);

/**
 * A fresh `Idempotency-Key` (docs/protocol.md §8). `getRandomValues` rather than `randomUUID`: the
 * latter exists only on https and localhost pages.
 * @returns {string}
 */
function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The REST API, called as one signed-in user. */
export class Api {
  /**
   * The key of each create whose outcome is unknown, by route and body: saving the same form again
   * sends the same key, so that a create the server did make is answered again, not made twice.
   * @type {Map<string, string>}
   */
  #unsettledCreates = new Map();

  /**
   * @param {() => string} token
   * @param {{refused?: () => unknown}} [options] `refused`: told of every 401, for the sign-in to be
   *   checked and renewed (not awaited: the check's own call may be the one refused)
   */
  constructor(token, { refused } = {}) {
    this.token = token;
    this.refused = refused;
  }

  /**
   * Every configurator, page after page (the server answers a bounded page at a time).
   * @returns {Promise<ConfiguratorSummary[]>}
   */
  async listConfigurators() {
    /** @type {ConfiguratorSummary[]} */
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

  /** @param {number} id */
  configurator(id) {
    return this.call('GET', `/api/configurators/${id}`);
  }

  /** @param {string} name */
  createConfigurator(name) {
    return this.call('POST', '/api/configurators', { name });
  }

  /** @param {number} id @param {string} name @param {LockToken} lockToken */
  renameConfigurator(id, name, lockToken) {
    return this.call('PATCH', `/api/configurators/${id}`, { name }, lockToken);
  }

  /** @param {number} configuratorId @param {string} name @param {number | null} parentItemId @param {LockToken} lockToken */
  addItem(configuratorId, name, parentItemId, lockToken) {
    return this.call('POST', `/api/configurators/${configuratorId}/items`, { name, parentItemId: parentItemId || null }, lockToken);
  }

  /** @param {number} itemId @param {string} name @param {LockToken} lockToken */
  renameItem(itemId, name, lockToken) {
    return this.call('PATCH', `/api/items/${itemId}`, { name }, lockToken);
  }

  /** @param {number} itemId @param {LockToken} lockToken */
  deleteItem(itemId, lockToken) {
    return this.call('DELETE', `/api/items/${itemId}`, undefined, lockToken);
  }

  /** @param {number} itemId @param {Page} page @param {object} fields @param {LockToken} lockToken */
  addEntry(itemId, page, fields, lockToken) {
    return this.call('POST', `/api/items/${itemId}/${PAGE_COLLECTION[page]}`, fields, lockToken);
  }

  /** @param {Page} page @param {number} entryId @param {object} fields @param {LockToken} lockToken */
  updateEntry(page, entryId, fields, lockToken) {
    return this.call('PATCH', `/api/${PAGE_COLLECTION[page]}/${entryId}`, fields, lockToken);
  }

  /** @param {Page} page @param {number} entryId @param {LockToken} lockToken */
  deleteEntry(page, entryId, lockToken) {
    return this.call('DELETE', `/api/${PAGE_COLLECTION[page]}/${entryId}`, undefined, lockToken);
  }

  /** @param {number} configuratorId @param {object} fields @param {LockToken} lockToken */
  addVariable(configuratorId, fields, lockToken) {
    return this.call('POST', `/api/configurators/${configuratorId}/variables`, fields, lockToken);
  }

  /** @param {number} variableId @param {object} fields @param {LockToken} lockToken */
  updateVariable(variableId, fields, lockToken) {
    return this.call('PATCH', `/api/variables/${variableId}`, fields, lockToken);
  }

  /** @param {number} variableId @param {LockToken} lockToken */
  deleteVariable(variableId, lockToken) {
    return this.call('DELETE', `/api/variables/${variableId}`, undefined, lockToken);
  }

  /**
   * One REST call; rejects with an ApiError unless it succeeded.
   * @param {string} method
   * @param {string} path
   * @param {object} [body]
   * @param {LockToken} [lockToken] the fencing token, sent as `Lock-Token`
   * @returns {Promise<any>} the response's JSON body
   */
  async call(method, path, body, lockToken) {
    /** @type {Record<string, string>} */
    const headers = { Authorization: `Bearer ${this.token()}`, Accept: 'application/json' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    if (lockToken !== undefined && lockToken !== null) {
      headers['Lock-Token'] = String(lockToken);
    }
    const json = body === undefined ? undefined : JSON.stringify(body);
    const create = method === 'POST' ? `${path}\n${json}` : null;
    if (create !== null) {
      const key = this.#unsettledCreates.get(create) ?? newIdempotencyKey();
      this.#unsettledCreates.set(create, key);
      headers['Idempotency-Key'] = key;
    }
    let response;
    try {
      response = await fetch(path, { method, headers, body: json });
    } catch {
      throw new ApiError(0, {}, 'The server cannot be reached. Check your connection.');
    }
    if (create !== null && !CREATE_OUTCOME_UNKNOWN.has(response.status)) {
      this.#unsettledCreates.delete(create);
    }
    const parsed = await readBody(response);
    if (response.status === 401) {
      this.refused?.();
      // The server's own words name JWT checks, which say nothing to the person at the screen.
      throw new ApiError(401, parsed, 'The server no longer accepts your sign-in.');
    }
    if (!response.ok) {
      throw new ApiError(response.status, parsed);
    }
    return parsed;
  }
}

/** @param {Response} response @returns {Promise<any>} */
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
