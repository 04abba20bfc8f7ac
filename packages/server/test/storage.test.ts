import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentText, storedText } from '../src/document-text.js';
import { createAccountWithKey } from '../src/index.js';
import type { CollectionRef, DocumentRow } from '../src/storage/documents.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

/** A stored row as the API shows it; null stays null. */
const parsed = (row: DocumentRow | null) => (row === null ? null : JSON.parse(documentText(row)));

/** The storage contract: every engine must pass these, through the one interface the server uses. */
describe.each(availableEngines())('storage contract on %s', (engine) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  const open = async (target: { dataDir: string; databaseUrl: string | undefined }) =>
    openStorage({ ...target, databasePoolSize: 5, sqliteSynchronous: 'NORMAL' });
  let target: { dataDir: string; databaseUrl: string | undefined };

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-storage-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    target = { dataDir, databaseUrl: database?.url };
    storage = await open(target);
    cleanup = async () => {
      await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup());

  const ref = (collection: string): CollectionRef => ({ clusterId: 'cls_a', collection });
  const row = (id: string, data: object, at = '2026-01-01T00:00:00.000Z') => ({
    id,
    data: JSON.stringify(data),
    createdAt: at,
    updatedAt: at,
  });

  it('inserts, reads back and refuses a second document with the same id', async () => {
    const first = await storage.documents.insert(ref('c1'), row('a', { x: 1 }));
    expect(first.ok).toBe(true);
    expect(parsed(await storage.documents.get(ref('c1'), 'a'))).toEqual({
      _id: 'a',
      x: 1,
      _createdAt: '2026-01-01T00:00:00.000Z',
      _updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await storage.documents.insert(ref('c1'), row('a', { x: 2 }))).toEqual({
      ok: false,
      reason: 'conflict',
    });
    expect((await storage.documents.list(ref('c1'), { limit: 10, skip: 0, sort: [] })).total).toBe(1);
  });

  it('keeps clusters apart', async () => {
    await storage.documents.insert(ref('shared'), row('same', { owner: 'a' }));
    const other = { clusterId: 'cls_b', collection: 'shared' };
    expect(await storage.documents.get(other, 'same')).toBeNull();
    expect((await storage.documents.insert(other, row('same', { owner: 'b' }))).ok).toBe(true);
    expect(parsed(await storage.documents.get(ref('shared'), 'same')).owner).toBe('a');
  });

  it('replaces, updates and deletes, answering not_found for missing documents', async () => {
    await storage.documents.insert(ref('c2'), row('d', { a: 1, b: 2 }));
    const replaced = await storage.documents.replace(ref('c2'), 'd', '{"c":3}', '2026-02-01T00:00:00.000Z');
    expect(replaced.ok && JSON.parse(storedText(replaced))).toMatchObject({
      _id: 'd',
      c: 3,
      _createdAt: '2026-01-01T00:00:00.000Z',
    });
    const updated = await storage.documents.update(
      ref('c2'),
      'd',
      (data) => ({ ...data, e: 5 }),
      '2026-03-01T00:00:00.000Z',
    );
    expect(updated.ok && JSON.parse(storedText(updated))).toMatchObject({
      c: 3,
      e: 5,
      _updatedAt: '2026-03-01T00:00:00.000Z',
    });
    expect(await storage.documents.replace(ref('c2'), 'missing', '{}', 'x')).toEqual({
      ok: false,
      reason: 'not_found',
    });
    expect(await storage.documents.update(ref('c2'), 'missing', (d) => d, 'x')).toEqual({
      ok: false,
      reason: 'not_found',
    });
    expect(await storage.documents.delete(ref('nowhere'), 'd')).toEqual({ ok: false, reason: 'not_found' });
    expect(await storage.documents.delete(ref('c2'), 'd')).toEqual({ ok: true, deleted: 'd' });
    expect(await storage.documents.delete(ref('c2'), 'd')).toEqual({ ok: false, reason: 'not_found' });
    expect((await storage.documents.list(ref('c2'), { limit: 10, skip: 0, sort: [] })).total).toBe(0);
  });

  it('keeps the total exact under concurrent inserts and deletes', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `n${String(i).padStart(3, '0')}`);
    await Promise.all(ids.map((id) => storage.documents.insert(ref('counted'), row(id, { id }))));
    await Promise.all(ids.slice(0, 25).map((id) => storage.documents.delete(ref('counted'), id)));
    const page = await storage.documents.list(ref('counted'), { limit: 5, skip: 0, sort: [] });
    expect(page.total).toBe(35);
    expect(page.rows.map((r) => r.id)).toEqual(ids.slice(25, 30));
  });

  it('sorts by creation time backwards with ties broken by id', async () => {
    await storage.documents.insert(ref('timed'), row('b', {}, '2026-01-02T00:00:00.000Z'));
    await storage.documents.insert(ref('timed'), row('a', {}, '2026-01-02T00:00:00.000Z'));
    await storage.documents.insert(ref('timed'), row('c', {}, '2026-01-01T00:00:00.000Z'));
    const page = await storage.documents.list(ref('timed'), {
      limit: 10,
      skip: 0,
      sort: [{ path: ['_createdAt'], descending: true }],
    });
    expect(page.rows.map((r) => r.id)).toEqual(['b', 'a', 'c']);
  });

  it('records an idempotent answer with its write, and lets only one of two racing writes keep the key', async () => {
    const record = {
      key: 'k1',
      fingerprint: 'f',
      status: 201,
      expiredBefore: '2000-01-01T00:00:00.000Z',
      answer: () => '{"recorded":true}',
    };
    const results = await Promise.all([
      storage.documents.insert(ref('idem'), row('x1', {}), record),
      storage.documents.insert(ref('idem'), row('x2', {}), record),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === 'idempotency_race')).toHaveLength(1);
    expect((await storage.documents.list(ref('idem'), { limit: 10, skip: 0, sort: [] })).total).toBe(1);
    const found = await storage.idempotency.find('cls_a', 'k1', '2000-01-01T00:00:00.000Z');
    expect(found).toMatchObject({ fingerprint: 'f', status: 201, body: '{"recorded":true}' });
    expect(await storage.idempotency.find('cls_b', 'k1', '2000-01-01T00:00:00.000Z')).toBeNull();
    expect(await storage.idempotency.purgeExpired('9999-01-01T00:00:00.000Z')).toBeGreaterThanOrEqual(1);
    expect(await storage.idempotency.find('cls_a', 'k1', '2000-01-01T00:00:00.000Z')).toBeNull();
  });

  it('creates accounts once per e-mail and finds keys with their tier', async () => {
    const created = await createAccountWithKey(storage, {
      email: 'one@example.com',
      name: 'One',
      password: 'long enough pw',
      trialDays: 14,
    });
    const stored = await storage.keys.findForAuth(created.keyId);
    expect(stored).toMatchObject({
      clusterId: created.clusterId,
      status: 'active',
      tier: 'starter',
      clusterStatus: 'running',
    });
    await storage.keys.setStatus(created.keyId, 'paused');
    expect((await storage.keys.findForAuth(created.keyId))?.status).toBe('paused');
    await expect(
      createAccountWithKey(storage, { email: 'one@example.com', name: 'Again', password: 'long enough pw' }),
    ).rejects.toThrow(/already exists/);
    expect(await storage.keys.findForAuth('0000000000000000')).toBeNull();
  });

  it('lets exactly one of several claimants run a due task, and nobody before it is due again', async () => {
    const now = '2026-05-01T00:00:00.000Z';
    const later = '2026-05-01T00:10:00.000Z';
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => storage.tasks.claim('task', now, later)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await storage.tasks.claim('task', '2026-05-01T00:05:00.000Z', '2026-05-01T00:15:00.000Z')).toBe(
      false,
    );
    expect(await storage.tasks.claim('task', later, '2026-05-01T00:20:00.000Z')).toBe(true);
  });

  it('keeps notifications per user, newest first, with their data', async () => {
    const reader = await createAccountWithKey(storage, {
      email: 'notified@example.com',
      name: 'Reader',
      password: 'long enough pw',
    });
    const at = (minute: number) => `2026-06-01T00:0${minute}:00.000Z`;
    for (const minute of [1, 3, 2]) {
      await storage.notifications.create({
        id: `ntf_${minute}`,
        userId: reader.userId,
        kind: 'test.kind',
        title: `title ${minute}`,
        body: `message ${minute}`,
        link: minute === 3 ? '/somewhere' : null,
        data: { minute, nested: { ok: true } },
        createdAt: at(minute),
      });
    }
    const page = await storage.notifications.list(reader.userId, { limit: 2, skip: 0 });
    expect(page.total).toBe(3);
    expect(page.rows).toEqual([
      {
        id: 'ntf_3',
        kind: 'test.kind',
        title: 'title 3',
        body: 'message 3',
        link: '/somewhere',
        data: { minute: 3, nested: { ok: true } },
        createdAt: at(3),
        readAt: null,
      },
      expect.objectContaining({ id: 'ntf_2' }),
    ]);
    expect(
      (await storage.notifications.list(reader.userId, { limit: 2, skip: 2 })).rows.map((r) => r.id),
    ).toEqual(['ntf_1']);
    expect(await storage.notifications.list('usr_nobody', { limit: 10, skip: 0 })).toEqual({
      rows: [],
      total: 0,
      unread: 0,
    });
  });

  it('opens an already migrated database again without change', async () => {
    const again = await open(target);
    expect(await again.documents.get(ref('c1'), 'a')).not.toBeNull();
    await again.close();
  });
});
