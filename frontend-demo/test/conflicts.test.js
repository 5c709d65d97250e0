// The client's conflict rule (conflicts, blockingLock) against the server's conflict table
// (docs/protocol.md §2): the rows are read from the table the server's own test runs against Redis,
// so that the two cannot drift apart.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { blockingLock, conflicts } from '../editlock-client.js';

const SERVER_TESTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'test');
const HEADER = /^\s*\/\/\s*requested,\s*held,\s*user,\s*place,\s*expected\s*$/m;

/** Every file under `dir` whose name ends with `suffix`. */
function filesUnder(dir, suffix) {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

/**
 * The rows of the server's table: the `@CsvSource` under the comment
 * `// requested, held, user, place, expected` in the server's tests.
 * @returns {{file: string, rows: {requested: string, held: string, user: string, place: string, expected: string}[]}}
 */
function serverTable() {
  const file = filesUnder(SERVER_TESTS, '.java').find((candidate) => HEADER.test(fs.readFileSync(candidate, 'utf8')));
  assert.ok(file, `no test under ${SERVER_TESTS} holds the conflict table (a @CsvSource headed "// requested, held, user, place, expected")`);
  const source = fs.readFileSync(file, 'utf8');
  const table = source.slice(source.search(HEADER));
  const rows = [];
  for (const line of table.split('\n').slice(1)) {
    const row = /^\s*"([^"]*)",?\s*$/.exec(line);
    if (!row) {
      break; // the end of the @CsvSource
    }
    const [requested, held, user, place, expected] = row[1].split(',').map((cell) => cell.trim());
    rows.push({ requested, held, user, place, expected });
  }
  return { file: path.relative(path.join(SERVER_TESTS, '..', '..'), file), rows };
}

/** The server test's resources: configurator 1 with items 10 and 11, configurator 2 with item 20. */
function resource(kind, configuratorId, itemId, page) {
  switch (kind) {
    case 'CONFIGURATOR': return { type: 'configurator', configuratorId };
    case 'VARIABLES': return { type: 'variables', configuratorId };
    case 'PAGE': return { type: 'item-subresource', configuratorId, itemId, page };
    default: throw new Error(`unknown kind ${kind}`);
  }
}

/** Where the requested resource is, relative to the held one (item 10's filters in configurator 1). */
function requestedAt(kind, place) {
  switch (place) {
    case 'SAME': return resource(kind, 1, 10, 'filters');
    case 'OTHER_CONFIGURATOR': return resource(kind, 2, 20, 'filters');
    case 'SAME_ITEM_OTHER_PAGE': return resource(kind, 1, 10, 'dependencies');
    case 'OTHER_ITEM_SAME_PAGE': return resource(kind, 1, 11, 'filters');
    default: throw new Error(`unknown place ${place}`);
  }
}

describe('the conflict rule of the client', () => {
  const { file, rows } = serverTable();

  it(`covers every pair of the server's table (${file})`, () => {
    const kinds = ['CONFIGURATOR', 'VARIABLES', 'PAGE'];
    for (const requested of kinds) {
      for (const held of kinds) {
        assert.ok(rows.some((row) => row.requested === requested && row.held === held), `a row for ${requested} requested while ${held} is held`);
      }
    }
  });

  for (const { requested, held, user, place, expected } of rows) {
    it(`${requested} requested while ${user} user holds ${held} (${place}) -> ${expected}`, () => {
      const heldLock = {
        resource: resource(held, 1, 10, 'filters'), ownerUserId: 'demo-sara', ownerUserName: 'Sara',
        acquiredAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-01T00:00:30Z',
      };
      const wanted = requestedAt(requested, place);
      const asker = user === 'same' ? 'demo-sara' : 'demo-omar';
      const blocker = blockingLock(wanted, [heldLock], asker);
      if (expected === 'LOCKED') {
        assert.equal(blocker, heldLock, `${JSON.stringify(wanted)} must be refused while another user holds ${JSON.stringify(heldLock.resource)}`);
        assert.equal(conflicts(wanted, heldLock.resource), true);
      } else {
        assert.equal(blocker, undefined, `${JSON.stringify(wanted)} must be granted beside ${JSON.stringify(heldLock.resource)} held by the ${user} user`);
      }
    });
  }
});
