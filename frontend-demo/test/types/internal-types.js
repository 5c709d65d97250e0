// The typedefs that editlock-client.js marks `@internal` (its own bookkeeping) stay out of the package's API: tsc
// strips `@internal` declarations only from TypeScript sources and still exports these, so they are made private
// to editlock-client.d.ts. Part of `npm run types`: node test/types/internal-types.js editlock-client.d.ts

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLIENT = fileURLToPath(new URL('../../editlock-client.js', import.meta.url));

/**
 * The names of the typedefs in `source` whose JSDoc comment says `@internal`.
 * @param {string} source
 * @returns {string[]}
 */
export function internalTypedefs(source) {
  return [...source.matchAll(/\/\*\*([\s\S]*?)\*\//g)]
    .map(([, comment]) => comment)
    .filter((comment) => /@internal\b/.test(comment))
    .flatMap((comment) => [...comment.matchAll(/@typedef\s+(?:\{.*\}\s+)?([A-Za-z_$][\w$]*)\s*$/gm)].map(([, name]) => name));
}

/**
 * The declarations with the client's internal typedefs no longer exported.
 * @param {string} declarations what tsc wrote
 * @param {string} [source] the client
 * @returns {string}
 */
export function hideInternal(declarations, source = readFileSync(CLIENT, 'utf8')) {
  let hidden = declarations;
  for (const name of internalTypedefs(source)) {
    hidden = hidden.replace(new RegExp(`^export type ${name.replace(/\$/g, '\\$')}\\b`, 'm'), `type ${name}`);
  }
  // In a declaration file, a module's declarations are all exported unless it says `export {}`.
  return hidden === declarations || /^export \{\};$/m.test(hidden) ? hidden : `${hidden}export {};\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) {
    throw new Error('usage: node test/types/internal-types.js <declarations.d.ts>');
  }
  writeFileSync(file, hideInternal(readFileSync(file, 'utf8')));
}
