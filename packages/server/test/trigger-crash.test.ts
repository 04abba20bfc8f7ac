import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { availableEngines, createTestDatabase } from './helpers.js';
import { startProcess, stop } from './server-process.js';
import { freePort } from './setup/services.js';

const EVENTS = 20;

/** Requests of the development account: its key for data, a session for functions and triggers. */
async function developer(url: string, dataDir: string) {
  const { email, password, apiKey } = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8'));
  const signin = await fetch(`${url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(signin.status).toBe(200);
  const { token } = (await signin.json()) as { token: string };
  return (base: string, method: string, path: string, body?: unknown, session = false) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        ...(session ? { authorization: `Bearer ${token}` } : { 'x-api-key': apiKey }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

type Call = Awaited<ReturnType<typeof developer>>;

/** Every document of a collection. */
async function documents<T>(call: Call, url: string, collection: string): Promise<T[]> {
  const res = await call(url, 'GET', `/api/v1/data/${collection}?limit=1000`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: T[] }).data;
}

async function created(res: Response): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

function environment(dataDir: string, port: number, databaseUrl: string | undefined) {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATAPLATFORM_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    DATAPLATFORM_ENCRYPTION_KEY: 'trigger-crash-suite-key-of-at-least-32-characters',
    DATAPLATFORM_WEBHOOK_RETRY_SCHEDULE: Array(60).fill('200ms').join(','),
    DATAPLATFORM_WEBHOOK_POLL_INTERVAL: '200',
  };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.each(availableEngines())('document triggers across a crash on %s', (engine) => {
  it('runs every event captured before SIGKILL after the restart, at least once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-trigger-crash-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    const env = environment(dataDir, await freePort(), database?.url);
    let server = await startProcess(env);
    try {
      const call = await developer(server.url, dataDir);
      // Fails until the switch document exists, so every event is still to run when the process dies.
      const fn = await created(
        await call(
          server.url,
          'POST',
          '/api/functions',
          {
            name: 'record',
            code: `export default async (event, ctx) => {
              const on = await ctx.data.get('switch', 'on').catch(() => null);
              if (on === null) throw new Error('not yet');
              await ctx.data.create('ran', { of: event.documentId });
            }`,
          },
          true,
        ),
      );
      await created(
        await call(
          server.url,
          'POST',
          '/api/triggers',
          {
            name: 'on-watched',
            source: { type: 'document', events: ['document.created'], collection: 'watched' },
            target: { function: fn },
          },
          true,
        ),
      );
      for (let n = 0; n < EVENTS; n++)
        await created(await call(server.url, 'POST', '/api/v1/data/watched', { _id: `w${n}` }));
      await stop(server.child, 'SIGKILL');

      server = await startProcess(env);
      expect(await documents(call, server.url, 'ran')).toEqual([]);
      await created(await call(server.url, 'POST', '/api/v1/data/switch', { _id: 'on' }));
      const expected = Array.from({ length: EVENTS }, (_, n) => `w${n}`).sort();
      // Runs claimed when the process died come due once their lease ends (20 s).
      await until(async () => {
        const ran = new Set((await documents<{ of: string }>(call, server.url, 'ran')).map((r) => r.of));
        return ran.size === EVENTS;
      }, 60_000);
      const ran = (await documents<{ of: string }>(call, server.url, 'ran')).map((r) => r.of);
      expect([...new Set(ran)].sort()).toEqual(expected);
    } finally {
      await stop(server.child, 'SIGTERM');
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.runIf(availableEngines().includes('postgres'))('schedules with two server processes', () => {
  it('fires each tick in one of them only', async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-schedule-pair-')));
    const envs = await Promise.all(dirs.map(async (dir) => environment(dir, await freePort(), database.url)));
    const first = await startProcess(envs[0]!);
    const second = await startProcess(envs[1]!, 'source', { credentials: false }).catch(async (error) => {
      await stop(first.child, 'SIGTERM');
      throw error;
    });
    try {
      const call = await developer(first.url, dirs[0]!);
      const fn = await created(
        await call(
          first.url,
          'POST',
          '/api/functions',
          {
            name: 'tick',
            code: `export default async (input, ctx) => { await ctx.data.create('ticks', { at: input.scheduledAt }); }`,
          },
          true,
        ),
      );
      const trigger = await created(
        await call(
          second.url,
          'POST',
          '/api/triggers',
          {
            name: 'every-second',
            source: { type: 'schedule', cron: '* * * * * *' },
            target: { function: fn },
          },
          true,
        ),
      );
      await until(async () => (await documents(call, first.url, 'ticks')).length >= 4, 30_000);
      expect((await call(first.url, 'POST', `/api/triggers/${trigger}/pause`, undefined, true)).status).toBe(
        200,
      );
      // A tick claimed just before the pause may still be running.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const ticks = (await documents<{ at: string }>(call, second.url, 'ticks')).map((t) => t.at);
      expect(ticks.length).toBeGreaterThanOrEqual(4);
      expect(new Set(ticks).size).toBe(ticks.length);
    } finally {
      await Promise.all([stop(first.child, 'SIGTERM'), stop(second.child, 'SIGTERM')]);
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
