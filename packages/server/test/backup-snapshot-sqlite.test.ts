import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../src/bootstrap/accounts.js';
import { withAuthCache } from '../src/storage/cached-stores.js';
import { openSqliteStorage } from '../src/storage/sqlite/index.js';
import type { EngineStorage } from '../src/storage/types.js';

/** Ids whose JSON needs escapes of every kind, and text beyond ASCII. */
const IDS = [
  'plain',
  'quo"te',
  'back\\slash',
  'new\nline',
  'tab\there',
  '\u0001ctl',
  'é-ü',
  '😀',
  'sep\u2028',
  'z/',
];

describe("a SQLite snapshot's documents as tuples", () => {
  let dir: string;
  let storage: EngineStorage;
  let clusterId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dp-tuples-'));
    // A database file: the snapshot reads it through a connection of its own, as a backup does.
    storage = openSqliteStorage({ dataDir: dir });
    ({ clusterId } = await createAccountWithKey(withAuthCache(storage), {
      email: 'tuples@example.com',
      name: 'Tuples',
      password: 'a long enough password',
      plan: 'team',
    }));
    for (const [i, id] of IDS.entries()) {
      const at = `2026-11-27T07:00:0${i}.000Z`;
      const data = JSON.stringify({ n: i, s: `${id} "x"\\`, nested: { a: [1, 2.5, null, true] } });
      const result = await storage.documents.insert(
        { clusterId, collection: 'o"rders' },
        { id, data, createdAt: at, updatedAt: at },
      );
      expect(result.ok).toBe(true);
    }
  });

  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are the documents it reads as objects, page by page', async () => {
    await storage.backups.snapshot(clusterId, async (reader) => {
      expect(reader.documentTuples).toBeDefined();
      const rows = await reader.documents('o"rders', '', 100);
      expect(rows).toHaveLength(IDS.length);
      const tuples = [];
      for (let after = ''; ; ) {
        const page = await reader.documentTuples!('o"rders', after, 3);
        tuples.push(...page);
        if (page.length < 3) break;
        after = page.at(-1)![0];
      }
      expect(tuples).toEqual(rows.map((row) => [row.id, row.data, row.createdAt, row.updatedAt]));
      expect(await reader.documentTuples!('o"rders', rows.at(-1)!.id, 10)).toEqual([]);
      expect(await reader.documentTuples!('nothing', '', 10)).toEqual([]);
    });
  });
});
