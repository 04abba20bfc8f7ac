import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentOperation, OperationResult } from '../src/storage/documents.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

const AT = '2026-01-01T00:00:00.000Z';
const NEVER = '2000-01-01T00:00:00.000Z';

const insert = (collection: string, id: string, data: object = {}): DocumentOperation => ({
  kind: 'insert',
  collection,
  row: { id, data: JSON.stringify(data), createdAt: AT, updatedAt: AT },
});
const bump = (collection: string, id: string): DocumentOperation => ({
  kind: 'update',
  collection,
  id,
  change: (data) => ({ ...data, n: Number(data.n ?? 0) + 1 }),
  updatedAt: AT,
});

/** The storage contract of `DocumentStore.apply`, on every engine. */
describe.each(availableEngines())('batch storage on %s', (engine) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-batch-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    storage = await openStorage({
      dataDir,
      databaseUrl: database?.url,
      databasePoolSize: 8,
      sqliteSynchronous: 'NORMAL',
    });
    cleanup = async () => {
      await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup());

  const total = async (collection: string) =>
    (await storage.documents.list({ clusterId: 'c1', collection }, { limit: 1, skip: 0, sort: [] })).total;

  it('rolls an atomic batch back at its first failure: no documents, counters or idempotency record', async () => {
    await storage.documents.apply('c1', [insert('s1', 'kept')], { atomic: true });
    const record = { key: 'k', fingerprint: 'f', status: 200, expiredBefore: NEVER, answer: () => '{}' };
    const outcome = await storage.documents.apply(
      'c1',
      [
        insert('s1', 'a'),
        insert('s2', 'b'),
        { kind: 'delete', collection: 's1', id: 'kept' },
        insert('s1', 'a'),
      ],
      { atomic: true, idempotency: record },
    );
    expect(outcome).toEqual({
      ok: false,
      reason: 'aborted',
      index: 3,
      result: { ok: false, reason: 'conflict' },
    });
    expect(await total('s1')).toBe(1);
    expect(await total('s2')).toBe(0);
    expect(await storage.documents.get({ clusterId: 'c1', collection: 's1' }, 'kept')).not.toBeNull();
    expect(await storage.idempotency.find('c1', 'k', NEVER)).toBeNull();
  });

  it('lets every operation of a non-atomic batch stand on its own, refused ones included', async () => {
    const outcome = await storage.documents.apply(
      'c1',
      [insert('s3', 'a'), { kind: 'refused' }, insert('s3', 'a'), { kind: 'get', collection: 's3', id: 'a' }],
      { atomic: false },
    );
    expect(outcome.ok && outcome.results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual([
      'ok',
      'refused',
      'conflict',
      'ok',
    ]);
    expect(await total('s3')).toBe(1);
  });

  // Long runs of inserts into one collection: enough rows for several multi-row statements, with taken ids in them.
  const longRun = (collection: string) =>
    Array.from({ length: 130 }, (_, i) =>
      insert(collection, i === 110 ? 'r100' : `r${i === 75 ? 'taken' : i}`),
    );

  it('gives each insert of a long run its own result: a taken id, and a repeat of an id earlier in the run', async () => {
    await storage.documents.apply('c1', [insert('s5', 'rtaken', { first: true })], { atomic: true });
    const outcome = await storage.documents.apply('c1', longRun('s5'), { atomic: false });
    const failed = outcome.ok ? outcome.results.flatMap((r, i) => (r.ok ? [] : [[i, r.reason]])) : outcome;
    expect(failed).toEqual([
      [75, 'conflict'],
      [110, 'conflict'],
    ]);
    expect(await total('s5')).toBe(129);
    const kept = await storage.documents.get({ clusterId: 'c1', collection: 's5' }, 'rtaken');
    expect(JSON.parse(kept!.data)).toMatchObject({ first: true });
  });

  it('rolls a long atomic run back at its first taken id', async () => {
    await storage.documents.apply('c1', [insert('s6', 'rtaken')], { atomic: true });
    expect(await storage.documents.apply('c1', longRun('s6'), { atomic: true })).toEqual({
      ok: false,
      reason: 'aborted',
      index: 75,
      result: { ok: false, reason: 'conflict' },
    });
    expect(await total('s6')).toBe(1);
    const clean = await storage.documents.apply('c1', longRun('s7').slice(0, 101), { atomic: true });
    expect(clean.ok && clean.results.every((r) => r.ok)).toBe(true);
    expect(await total('s7')).toBe(101);
  });

  it('records the composed answer with a successful batch', async () => {
    const record = {
      key: 'k2',
      fingerprint: 'f',
      status: 200,
      expiredBefore: NEVER,
      answer: (results: readonly OperationResult[]) => `{"n":${results.length}}`,
    };
    const outcome = await storage.documents.apply('c1', [insert('s4', 'a')], {
      atomic: true,
      idempotency: record,
    });
    expect(outcome.ok).toBe(true);
    expect(await storage.idempotency.find('c1', 'k2', NEVER)).toMatchObject({ body: '{"n":1}', status: 200 });
  });

  it('lets a failing write among concurrent single writes fail alone: its neighbours commit', async () => {
    const ref = { clusterId: 'c1', collection: 'together' };
    await storage.documents.insert(ref, { id: 'taken', data: '{}', createdAt: AT, updatedAt: AT });
    const record = (key: string) => ({
      key,
      fingerprint: 'f',
      status: 201,
      expiredBefore: NEVER,
      answer: () => '{}',
    });
    const row = (id: string) => ({ id, data: '{}', createdAt: AT, updatedAt: AT });
    // Sent in one tick, so an engine that groups commits puts them in one group.
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => storage.documents.insert(ref, row(`ok${i}`))),
      storage.documents.insert(ref, row('taken')),
      storage.documents.insert(ref, row('race1'), record('same')),
      storage.documents.insert(ref, row('race2'), record('same')),
      storage.documents.delete(ref, 'missing'),
      storage.documents.apply('c1', [insert('together', 'in-batch'), insert('together', 'taken')], {
        atomic: true,
      }),
    ]);
    expect(results.slice(0, 10).every((r) => r.ok)).toBe(true);
    expect(results[10]).toEqual({ ok: false, reason: 'conflict' });
    expect(
      results
        .slice(11, 13)
        .map((r) => (r.ok ? 'ok' : r.reason))
        .sort(),
    ).toEqual(['idempotency_race', 'ok']);
    expect(results[13]).toEqual({ ok: false, reason: 'not_found' });
    expect(results[14]).toMatchObject({ ok: false, reason: 'aborted', index: 1 });
    // The taken document, ten inserts and the winner of the race; nothing of the aborted batch.
    expect(await total('together')).toBe(12);
    expect(await storage.documents.get(ref, 'in-batch')).toBeNull();
  });

  it('keeps totals exact under concurrent batches that insert, delete and abort', async () => {
    const batches = Array.from({ length: 12 }, (_, k) => {
      const ids = Array.from({ length: 50 }, (_, i) => `b${k}-${i}`);
      const operations = ids.map((id) => insert('busy', id));
      // Every third batch fails at its end and must leave nothing.
      if (k % 3 === 0) operations.push({ kind: 'get', collection: 'busy', id: 'missing' });
      else operations.push({ kind: 'delete', collection: 'busy', id: ids[0]! });
      return storage.documents.apply('c1', operations, { atomic: true });
    });
    const outcomes = await Promise.all(batches);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(8);
    expect(await total('busy')).toBe(8 * 49);
  });

  it('retries a transaction the database rolled back for a deadlock, so crossing batches both succeed', async () => {
    await storage.documents.apply('c1', [insert('cross', 'a'), insert('cross', 'b')], { atomic: true });
    for (let round = 0; round < 2; round++) {
      // A read between the patches makes each lock its documents one at a time, in opposite orders.
      const read: DocumentOperation = { kind: 'get', collection: 'cross', id: 'a' };
      const outcomes = await Promise.all([
        storage.documents.apply('c1', [bump('cross', 'a'), read, bump('cross', 'b')], { atomic: true }),
        storage.documents.apply('c1', [bump('cross', 'b'), read, bump('cross', 'a')], { atomic: true }),
      ]);
      expect(outcomes.every((o) => o.ok)).toBe(true);
    }
    const a = await storage.documents.get({ clusterId: 'c1', collection: 'cross' }, 'a');
    expect(JSON.parse(a!.data).n).toBe(4);
  });
});
