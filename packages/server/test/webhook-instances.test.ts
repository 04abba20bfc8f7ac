import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase } from './helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';
import { hexSignatureValid } from './webhooks/signatures.js';

const WRITES = 300;

/** Two instances on one PostgreSQL (sharing the encryption key by configuration) must deliver as one service. */
describe.skipIf(!inject('postgresUrl'))('webhooks with several instances on PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let keyless: RunningServer;
  let receiver: Receiver;
  let apiKey: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-webhook-multi-')));
    const encryptionKey = randomBytes(32).toString('base64');
    const options = (dataDir: string, key: string) => ({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: database.url,
      logLevel: 'fatal',
      encryptionKey: key,
      webhookPollInterval: 200,
    });
    [a, b] = await Promise.all([
      startServer(options(dirs[0]!, encryptionKey)),
      startServer(options(dirs[1]!, encryptionKey)),
    ]);
    // A third instance configured with another key: it must neither create subscriptions nor deliver.
    keyless = await startServer(options(dirs[2]!, randomBytes(32).toString('base64')));
    apiKey = (a.devAccount ?? b.devAccount)!.apiKey;
    receiver = await startReceiver();
    cleanup = async () => {
      await Promise.all([a, b, keyless].map((server) => server?.close()));
      await receiver?.close();
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.());

  const call = (server: RunningServer, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('captures writes on one instance made right after another acknowledged a subscription', async () => {
    for (const round of [1, 2, 3]) {
      const collection = `fresh${round}`;
      // B has just looked at the cluster for this write and found no subscription for the collection's events.
      expect((await call(b, 'POST', `/api/v1/data/${collection}`, { _id: 'before' })).status).toBe(201);
      const res = await call(a, 'POST', '/api/v1/data/webhooks', {
        url: `${receiver.url}/${collection}`,
        events: ['*'],
        collection,
      });
      expect(res.status).toBe(201);
      // The very next write, on B, must be captured.
      expect((await call(b, 'POST', `/api/v1/data/${collection}`, { _id: 'after' })).status).toBe(201);
      const arrived = await receiver.waitFor(round);
      expect(arrived[round - 1]!.path).toBe(`/${collection}`);
      expect(JSON.parse(arrived[round - 1]!.body)).toMatchObject({
        type: 'document.created',
        documentId: 'after',
      });
      await call(a, 'DELETE', `/api/v1/data/webhooks/${(await res.json())._id}`);
    }
    receiver.received.splice(0);
  }, 30_000);

  it('delivers each event once when both instances write and deliver', async () => {
    const res = await call(a, 'POST', '/api/v1/data/webhooks', {
      url: receiver.url,
      events: ['*'],
      collection: 'shared',
    });
    expect(res.status).toBe(201);
    const { secret } = await res.json();
    expect((await call(b, 'POST', '/api/v1/data/shared', { _id: 'first' })).status).toBe(201);
    await receiver.waitFor(1);

    const servers = [a, b, keyless];
    const ids = Array.from({ length: WRITES }, (_, i) => `doc-${i}`);
    await Promise.all(
      ids.map(async (id, i) => {
        const written = await call(servers[i % 3]!, 'POST', '/api/v1/data/shared', { _id: id });
        expect(written.status).toBe(201);
      }),
    );
    const got = await receiver.waitFor(WRITES + 1, 30_000);
    // Long enough for a second delivery of anything to show up.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received).toHaveLength(WRITES + 1);
    const eventIds = new Set(got.map((request) => request.headers['x-webhook-id']));
    expect(eventIds.size).toBe(WRITES + 1);
    expect(new Set(got.map((request) => JSON.parse(request.body).documentId))).toEqual(
      new Set(['first', ...ids]),
    );
    for (const request of got) expect(hexSignatureValid(request, secret)).toBe(true);
  }, 60_000);

  it('refuses to create subscriptions on an instance without the key of the stored secrets', async () => {
    const res = await call(keyless, 'POST', '/api/v1/data/webhooks', { url: receiver.url, events: ['*'] });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.code).toBe('internal_error');
    expect(body.error).toMatch(/DATAPLATFORM_ENCRYPTION_KEY/);
    expect(keyless.app.webhooks.worker).toBeNull();
    expect(a.app.webhooks.worker).not.toBeNull();
  });
});
