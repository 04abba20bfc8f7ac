import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

describe('group commit on SQLite', () => {
  let dir: string;
  let db: Database.Database;
  /** A second connection to the same file: it sees only what was committed. */
  let reader: Database.Database;
  let group: GroupCommit;
  const insert = (id: string) => () => db.prepare('INSERT INTO t (id) VALUES (?)').run(id).changes;
  const committed = () =>
    (reader.prepare('SELECT id FROM t ORDER BY id').all() as { id: string }[]).map((r) => r.id);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataplatform-group-commit-'));
    db = new Database(join(dir, 'db.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.exec(`CREATE TABLE t (id TEXT PRIMARY KEY);
      CREATE TABLE child (parent TEXT REFERENCES t (id) DEFERRABLE INITIALLY DEFERRED)`);
    reader = new Database(join(dir, 'db.sqlite'), { readonly: true });
    group = new GroupCommit(db);
  });
  afterEach(() => {
    reader.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits writes that arrive together in one transaction, each settled once it is committed', async () => {
    const seenAtSettle: string[][] = [];
    const writes = ['a', 'b', 'c'].map((id) =>
      group.run(insert(id)).then(() => seenAtSettle.push(committed())),
    );
    expect(committed()).toEqual([]);
    await Promise.all(writes);
    expect(group.stats).toEqual({ groups: 1, writes: 3, syncs: 0 });
    // Every promise settled after the one commit: each already sees all three rows.
    expect(seenAtSettle).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
  });

  it('rolls back a failing write alone and commits its neighbours', async () => {
    const outcomes = await Promise.allSettled([
      group.run(insert('a')),
      group.run(() => {
        insert('b')();
        insert('a')(); // taken by the first write of the group: this write undoes its 'b' too
      }),
      group.run(insert('c')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(committed()).toEqual(['a', 'c']);
  });

  it('commits a lone write without waiting for another', async () => {
    await group.run(insert('alone'));
    expect(committed()).toEqual(['alone']);
    await group.run(insert('next'));
    expect(group.stats).toEqual({ groups: 2, writes: 2, syncs: 0 });
  });

  it('fails every write of a group whose commit fails, and keeps none of them', async () => {
    const outcomes = await Promise.allSettled([
      group.run(insert('a')),
      // A deferred foreign key is checked at COMMIT: the whole group's commit fails.
      group.run(() => db.prepare('INSERT INTO child (parent) VALUES (?)').run('missing')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(committed()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    await group.run(insert('after'));
    expect(committed()).toEqual(['after']);
  });

  it('with a WAL file to sync, acknowledges a group only after its sync, and covers later groups with the next', async () => {
    const synced = new GroupCommit(db, { walFile: join(dir, 'db.sqlite-wal') });
    const order: string[] = [];
    const first = synced.run(insert('a')).then(() => order.push('a'));
    // Committed (visible to another connection) but not yet acknowledged: the sync runs off the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(committed()).toEqual(['a']);
    expect(order).toEqual([]);
    // A reader that must not hand out what is not yet durable waits for the same sync.
    const durable = synced.durable().then(() => order.push('durable'));
    const more = ['b', 'c'].map((id) => synced.run(insert(id)).then(() => order.push(id)));
    await Promise.all([first, durable, ...more]);
    expect(order).toEqual(['a', 'durable', 'b', 'c']);
    await synced.durable(); // nothing awaits a sync now: at once
    expect(synced.stats).toMatchObject({ groups: 2, writes: 3 });
    expect(synced.stats.syncs).toBeGreaterThanOrEqual(1);
    expect(synced.stats.syncs).toBeLessThanOrEqual(2);
    // The commits ran without a sync of their own and the connection is back to FULL for every other write.
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    await synced.close();
  });
});
