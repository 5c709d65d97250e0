// The demo's REST calls (api.js) against a scripted fetch: a create whose outcome the client could not
// learn is sent again under the same Idempotency-Key (docs/protocol.md §8), so that saving the form
// again cannot make a second entry.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Api, ApiError } from '../api.js';

/** @type {{method: string, path: string, key: string | undefined, body: string | undefined}[]} */
let sent;
/** @type {(() => Promise<Response>)[]} */
let answers;

const answer = (status, body = {}) => () => Promise.resolve(new Response(JSON.stringify(body), { status }));
const unreachable = () => Promise.reject(new TypeError('Failed to fetch'));

beforeEach(() => {
  sent = [];
  answers = [];
  globalThis.fetch = (path, init) => {
    sent.push({ method: init.method, path, key: init.headers['Idempotency-Key'], body: init.body });
    const next = answers.shift();
    assert.ok(next, `no answer scripted for ${init.method} ${path}`);
    return next();
  };
});

afterEach(() => {
  delete globalThis.fetch;
});

/** Runs one call and returns the status it ended with (200 range as the status, errors as theirs). */
async function statusOf(call) {
  try {
    await call;
    return 'ok';
  } catch (failure) {
    assert.ok(failure instanceof ApiError, String(failure));
    return failure.status;
  }
}

describe('creates through the REST API', () => {
  const api = new Api(() => 'token');
  const addFilter = (expression) => api.addEntry(7, 'filters', { expression }, 18);

  for (const [lost, status] of [['the answer was lost', unreachable], ['the store did not answer', answer(503)], ['the first try is still running', answer(409)]]) {
    it(`sends the same Idempotency-Key again when ${lost}`, async () => {
      answers.push(status, answer(201, { id: 1 }));
      assert.notEqual(await statusOf(addFilter('size > 3')), 'ok');
      assert.equal(await statusOf(addFilter('size > 3')), 'ok');

      assert.equal(sent.length, 2);
      assert.match(sent[0].key ?? '', /^[0-9a-f]{32}$/, 'a create carries a key of printable ASCII');
      assert.equal(sent[1].key, sent[0].key, 'the retry of the same create must carry the same key');
    });
  }

  it('sends a new key once the create was answered, and for another body', async () => {
    answers.push(answer(503), answer(201, { id: 1 }), answer(201, { id: 2 }));
    await statusOf(addFilter('a'));
    await statusOf(addFilter('b'));
    await statusOf(addFilter('a'));

    assert.notEqual(sent[1].key, sent[0].key, 'another body is another create');
    assert.equal(sent[2].key, sent[0].key, 'the create of "a" is still unsettled');
    answers.push(answer(201, { id: 3 }));
    await statusOf(addFilter('a'));
    assert.notEqual(sent[3].key, sent[0].key, 'a create that was answered is done: the same body again is a new entry');
  });

  it('sends a new key after a refusal that created nothing', async () => {
    answers.push(answer(423, { lockedBy: 'Tom' }), answer(201, { id: 1 }));
    assert.equal(await statusOf(addFilter('x')), 423);
    await statusOf(addFilter('x'));
    assert.notEqual(sent[1].key, sent[0].key);
  });

  it('sends no key on other writes', async () => {
    answers.push(answer(200), answer(204));
    await statusOf(api.call('PATCH', '/api/filters/3', { expression: 'y' }, 18));
    await statusOf(api.call('DELETE', '/api/filters/3', undefined, 18));
    assert.deepEqual(sent.map((request) => request.key), [undefined, undefined]);
  });
});
