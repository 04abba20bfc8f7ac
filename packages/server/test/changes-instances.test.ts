import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CreatedAccount, createAccountWithKey, type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase } from './helpers.js';
import { openStream, started } from './webhooks/event-stream.js';

/** Two instances on one PostgreSQL: a change stream on one hears the writes and the key changes of the other. */
describe.skipIf(!inject('postgresUrl'))('change streams across instances on PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let account: CreatedAccount;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-changes-')));
    const servers = await Promise.all(
      dirs.map((dataDir) =>
        startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: database.url, logLevel: 'warn' }),
      ),
    );
    [a, b] = servers as [RunningServer, RunningServer];
    account = await createAccountWithKey(a.storage, {
      email: 'live@example.com',
      name: 'Live',
      password: 'long enough pw',
      plan: 'team',
    });
    cleanup = async () => {
      await Promise.all([a, b].map((server) => server?.close()));
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.());

  const write = (server: RunningServer, id: string) =>
    fetch(`${server.url}/api/v1/data/fan`, {
      method: 'POST',
      headers: { 'x-api-key': account.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ _id: id }),
    });

  it('sends a write through one instance to the streams of both, in order', async () => {
    const streams = await Promise.all(
      [a, b].map((server) =>
        openStream(`${server.url}/api/v1/data/fan/changes`, { 'x-api-key': account.apiKey }),
      ),
    );
    await Promise.all(streams.map(started));
    for (const id of ['one', 'two', 'three']) expect((await write(a, id)).status).toBe(201);
    expect((await write(b, 'four')).status).toBe(201);
    for (const stream of streams) {
      const sent = await stream.waitFor(4);
      expect(sent.map((event) => JSON.parse(event.data!).documentId)).toEqual([
        'one',
        'two',
        'three',
        'four',
      ]);
      stream.close();
    }
  });

  it('ends the stream on one instance when the key is paused through the other', async () => {
    const stream = await openStream(`${b.url}/api/v1/data/fan/changes`, { 'x-api-key': account.apiKey });
    await started(stream);
    await a.storage.keys.setStatus(account.keyId, 'paused');
    await stream.ended;
    const last = stream.events.at(-1)!;
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data!).code).toBe('key_paused');
    await a.storage.keys.setStatus(account.keyId, 'active');
  });
});
