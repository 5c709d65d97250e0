// The client is packaged for reuse: its package exports it (and only it).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as client from '../editlock-client.js';

describe('the package', () => {
  it('exports the client by the package name', async () => {
    const exported = await import('editlock-frontend-demo');
    assert.equal(exported.EditlockClient, client.EditlockClient);
    assert.deepEqual(Object.keys(exported).sort(), Object.keys(client).sort());
  });

  it('keeps the demo out of its exports', async () => {
    await assert.rejects(import('editlock-frontend-demo/app.js'), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  });
});
