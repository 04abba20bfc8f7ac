import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

const AT = '2030-01-01T00:00:00.000Z';
const row = (id: string) => ({ id, data: '{}', createdAt: AT, updatedAt: AT });

/** The outbox and the history of deliveries at the storage level, on every engine (no worker runs here). */
describe.each(availableEngines())('webhook deliveries in storage on %s', (engine) => {
  let storage: Storage;
  let clusterId: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-history-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    storage = await openStorage({
      dataDir,
      databaseUrl: database?.url,
      databasePoolSize: 4,
      sqliteSynchronous: 'NORMAL',
    });
    ({ clusterId } = await createAccountWithKey(storage, {
      email: 'h@example.com',
      name: 'H',
      password: 'long enough pw',
    }));
    await storage.webhooks.create({
      id: 'wh_history',
      clusterId,
      url: 'http://127.0.0.1:9/',
      events: ['*'],
      collection: 'kept',
      delivery: 'http',
      createdAt: AT,
      secret: 'sealed',
    });
    cleanup = async () => {
      await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.());

  it('captures deliveries due at once when no worker takes them, and none for other collections', async () => {
    const written = await storage.documents.apply(
      clusterId,
      [
        { kind: 'insert', collection: 'kept', row: row('d1') },
        { kind: 'insert', collection: 'other', row: row('d2') },
      ],
      { atomic: true },
    );
    expect(written.ok).toBe(true);
    const { rows } = await storage.deliveries.list('wh_history', { limit: 10, skip: 0 });
    expect(rows.map((d) => d.documentId)).toContain('d1');
    expect(rows.map((d) => d.documentId)).not.toContain('d2');
    const claimed = await storage.deliveries.claim(new Date().toISOString(), '2999-01-01T00:00:00.000Z', 10);
    expect(claimed.map((d) => d.id).sort()).toEqual(rows.map((d) => d.id).sort());
    expect(claimed[0]).toMatchObject({
      url: 'http://127.0.0.1:9/',
      secret: 'sealed',
      clusterId,
      attempts: 0,
    });
    // Claimed: no other claim takes them before the lease ends.
    expect(await storage.deliveries.claim(new Date().toISOString(), '2999-01-01T00:00:00.000Z', 10)).toEqual(
      [],
    );
  });

  it('forgets finished deliveries past the history window, with their attempts and events, and keeps pending ones', async () => {
    await storage.documents.apply(clusterId, [{ kind: 'insert', collection: 'kept', row: row('d3') }], {
      atomic: true,
    });
    const { rows } = await storage.deliveries.list('wh_history', { limit: 10, skip: 0 });
    const done = rows.find((d) => d.documentId === 'd1')!;
    await storage.deliveries.finish({
      attemptId: 'att_history',
      deliveryId: done.id,
      startedAt: new Date().toISOString(),
      durationMs: 1,
      responseStatus: 200,
      error: null,
      succeeded: true,
      next: { status: 'succeeded', nextAttemptAt: null, retries: 0 },
    });
    expect(await storage.deliveries.attempts('wh_history', done.id)).toHaveLength(1);
    expect(await storage.deliveries.purgeFinished(new Date(Date.now() - 60_000).toISOString())).toBe(0);
    expect(await storage.deliveries.purgeFinished(new Date(Date.now() + 60_000).toISOString())).toBe(1);
    const left = (await storage.deliveries.list('wh_history', { limit: 10, skip: 0 })).rows;
    expect(left.map((d) => d.documentId).sort()).toEqual(['d3']);
    expect(await storage.deliveries.attempts('wh_history', done.id)).toBeNull();
  });
});
