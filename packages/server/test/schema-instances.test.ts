import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccountWithKey, type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase } from './helpers.js';

/** Two instances on one PostgreSQL share validators and indexes as one service. */
describe.skipIf(!inject('postgresUrl'))('schema across instances on PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let apiKey: string;
  let token: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-schema-')));
    const servers = await Promise.all(
      dirs.map((dataDir) =>
        startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: database.url, logLevel: 'warn' }),
      ),
    );
    [a, b] = servers as [RunningServer, RunningServer];
    cleanup = async () => {
      await Promise.all([a, b].map((server) => server?.close()));
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
    const account = { email: 'schema@example.com', name: 'Schema', password: 'long enough pw' };
    ({ apiKey } = await createAccountWithKey(a.storage, { ...account, plan: 'team' }));
    const signedIn = await fetch(`${a.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    token = ((await signedIn.json()) as { token: string }).token;
  }, 60_000);
  afterAll(() => cleanup?.());

  const call = (server: RunningServer, method: string, path: string, body?: unknown, key?: string) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(key ? { 'x-api-key': key } : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const write = (server: RunningServer, data: unknown) =>
    call(server, 'POST', '/api/v1/data/people', data, apiKey);

  it('builds an index on one instance while the other writes, and the other enforces it', async () => {
    const first = await Promise.all(
      Array.from({ length: 50 }, (_, i) => write(b, { email: `p${i}@example.com` })),
    );
    expect(first.map((res) => res.status)).toEqual(Array(50).fill(201));
    // Writes through b go on during a's concurrent build.
    const [built, ...during] = await Promise.all([
      call(a, 'POST', '/api/schema/collections/people/indexes', {
        name: 'by_email',
        fields: [{ path: 'email' }],
        unique: true,
      }),
      ...Array.from({ length: 50 }, (_, i) => write(b, { email: `q${i}@example.com` })),
    ]);
    expect(built.status, await built!.clone().text()).toBe(202);
    expect(((await built!.json()) as { status: string }).status).toBe('succeeded');
    expect(during.map((res) => res.status)).toEqual(Array(50).fill(201));

    const repeated = await write(b, { email: 'p1@example.com' });
    expect(repeated.status).toBe(409);
    expect(await repeated.json()).toMatchObject({
      code: 'unique_violation',
      details: { index: 'by_email', fields: ['email'] },
    });
    const listed = (await (await call(b, 'GET', '/api/schema/collections/people/indexes')).json()) as {
      data: { name: string; status: string }[];
    };
    expect(listed.data).toEqual([expect.objectContaining({ name: 'by_email', status: 'ready' })]);
  });

  it('gives one name to one of two concurrent builds, on either instance', async () => {
    const body = { name: 'by_age', fields: [{ path: 'age' }] };
    const answers = await Promise.all([
      call(a, 'POST', '/api/schema/collections/people/indexes', body),
      call(b, 'POST', '/api/schema/collections/people/indexes', body),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([202, 409]);
    const indexes = (await (await call(a, 'GET', '/api/schema/collections/people/indexes')).json()) as {
      data: { name: string }[];
    };
    expect(indexes.data.map((index) => index.name)).toEqual(['by_age', 'by_email']);
  });

  it('holds writes through one instance to a validator set through the other within a second', async () => {
    const set = await call(a, 'PUT', '/api/schema/collections/people/validator', {
      schema: { type: 'object', required: ['email'] },
    });
    expect(set.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refused = await write(b, { name: 'no email' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: string }).code).toBe('schema_violation');
  });
});
