// The package ships TypeScript declarations (editlock-client.d.ts, made by `npm run types`): they must be what the
// client's JSDoc declares now, and a TypeScript app must type-check against them, the client's events included.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hideInternal } from './types/internal-types.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** @param {string[]} args */
function tsc(args) {
  const run = spawnSync(process.execPath, [TSC, ...args], { cwd: root, encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}`.trim() };
}

describe('the TypeScript declarations', () => {
  it('are up to date with the client (else run `npm run types`)', () => {
    const out = mkdtempSync(join(tmpdir(), 'editlock-types-'));
    try {
      const built = tsc(['-p', 'test/types/tsconfig.declarations.json', '--outDir', out]);
      assert.ok(built.ok, `tsc could not write the declarations:\n${built.output}`);
      const generated = hideInternal(readFileSync(join(out, 'editlock-client.d.ts'), 'utf8'));
      const committed = readFileSync(join(root, 'editlock-client.d.ts'), 'utf8');
      if (committed !== generated) {
        const lines = committed.split('\n');
        const at = generated.split('\n').findIndex((line, i) => line !== lines[i]);
        assert.fail(`editlock-client.d.ts is not what the client declares now (from line ${at + 1}): run \`npm run types\``);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  for (const [how, args] of [
    ['as a Node.js app resolves the package (nodenext)', []],
    ['as a bundler resolves it', ['--module', 'preserve', '--moduleResolution', 'bundler']],
  ]) {
    it(`type-check a strict TypeScript app that imports the package, ${how}`, () => {
      const checked = tsc(['-p', 'test/types/tsconfig.json', ...args]);
      assert.ok(checked.ok, `test/types/consumer.ts does not type-check against editlock-client.d.ts:\n${checked.output}`);
    });
  }
});
