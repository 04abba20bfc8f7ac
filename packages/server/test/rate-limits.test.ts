import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccountWithKey, KeyService, type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase, forEachEngine, type TestServer } from './helpers.js';
import { newAccount } from './key-helpers.js';

/** Sends `total` requests from `clients` concurrent clients, each sending its next one when its answer is in. */
async function drive(total: number, clients: number, send: (n: number) => Promise<Response>) {
  let sent = 0;
  const answers: { status: number; remaining: string | null; retryAfter: string | null; code?: string }[] =
    [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (sent < total) {
        const res = await send(sent++);
        const body = (await res.json()) as { code?: string };
        answers.push({
          status: res.status,
          remaining: res.headers.get('ratelimit-remaining'),
          retryAfter: res.headers.get('retry-after'),
          code: body.code,
        });
      }
    }),
  );
  return answers;
}

/** Exactly `limit` successes whose RateLimit-Remaining counts down once through limit-1 … 0, then 429s. */
function expectExactLimit(answers: Awaited<ReturnType<typeof drive>>, limit: number) {
  const ok = answers.filter((a) => a.status === 200);
  const limited = answers.filter((a) => a.status === 429);
  expect({ ok: ok.length, limited: limited.length }).toEqual({ ok: limit, limited: answers.length - limit });
  expect(ok.map((a) => Number(a.remaining)).sort((x, y) => x - y)).toEqual(
    Array.from({ length: limit }, (_, i) => i),
  );
  for (const answer of limited)
    expect(answer).toMatchObject({ code: 'rate_limited', retryAfter: '60', remaining: '0' });
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  describe('rate limits in one instance', () => {
    it('gives a free-tier key exactly 100 successes under 20 concurrent clients, then 429 rate_limited', async () => {
      const { apiKey } = await newAccount(t);
      const answers = await drive(140, 20, () => t.call('GET', '/api/v1/data/limited', { key: apiKey }));
      expectExactLimit(answers, 100);
    });

    it.each([
      ['free', { plan: 'free' }, '100'],
      ['a trial', { plan: 'free', trialDays: 14 }, '500'],
      ['starter', { plan: 'starter' }, '500'],
      ['team', { plan: 'team' }, '2000'],
      ['payg', { plan: 'payg' }, '2000'],
    ] as const)('limits a key of the %s plan to its tier per minute', async (_plan, seed, limit) => {
      const { apiKey } = await newAccount(t, seed);
      const res = await t.call('GET', '/api/v1/data/tiers', { key: apiKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe(limit);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(Number(limit) - 1));
      const reset = Number(res.headers.get('ratelimit-reset'));
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
    });

    it('puts no limit and no RateLimit headers on an enterprise key', async () => {
      const { apiKey } = await newAccount(t, { enterprise: true });
      const res = await t.call('GET', '/api/v1/data/tiers', { key: apiKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    });

    it('sends the RateLimit headers on errors after authentication too (403, 404, 400), and counts them', async () => {
      const { apiKey } = await newAccount(t, { scopes: ['data:read'] });
      const answers = [
        await t.call('POST', '/api/v1/data/headers', { key: apiKey, body: {} }),
        await t.call('GET', '/api/v1/data/headers/missing', { key: apiKey }),
        await t.call('GET', '/api/v1/data/headers?limit=0', { key: apiKey }),
      ];
      expect(
        answers.map((r) => [
          r.status,
          r.headers.get('ratelimit-limit'),
          r.headers.get('ratelimit-remaining'),
        ]),
      ).toEqual([
        [403, '100', '99'],
        [404, '100', '98'],
        [400, '100', '97'],
      ]);
    });

    it('sends no RateLimit headers before a key is authenticated', async () => {
      const res = await t.call('GET', '/api/v1/data/headers', { key: null });
      expect(res.status).toBe(401);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    });
  });
});

const ready = Boolean(inject('postgresUrl') && inject('redisUrl'));

describe.skipIf(!ready)('rate limits across two instances sharing Redis', () => {
  let a: RunningServer;
  let b: RunningServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-rl-')));
    const start = (dataDir: string) =>
      startServer({
        port: 0,
        host: '127.0.0.1',
        dataDir,
        databaseUrl: database.url,
        redisUrl: inject('redisUrl')!,
        logLevel: 'warn',
      });
    a = await start(dirs[0]!);
    b = await start(dirs[1]!);
    cleanup = async () => {
      await Promise.all([a?.close(), b?.close()]);
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.());

  it('gives a free-tier key exactly 100 successes between both instances under 20 concurrent clients', async () => {
    const { apiKey, userId, keyId } = await createAccountWithKey(a.storage, {
      email: 'shared-limit@example.com',
      name: 'L',
      password: 'long enough password',
    });
    const answers = await drive(160, 20, (n) =>
      fetch(`${(n % 2 === 0 ? a : b).url}/api/v1/data/limited`, { headers: { 'x-api-key': apiKey } }),
    );
    expectExactLimit(answers, 100);
    // Both instances recorded their share of the history, the refusals as denied, and either one reads it whole.
    const owner = { userId, robotId: null };
    const keys = new KeyService(b.storage);
    await expect
      .poll(async () => (await keys.usage(owner, keyId, {})).total, { timeout: 5000, interval: 50 })
      .toBe(160);
    expect((await keys.usage(owner, keyId, { outcome: 'denied' })).total).toBe(60);
    const page = await keys.usage(owner, keyId, { limit: 1000 });
    const times = page.data.map((entry) => Date.parse(entry.timestamp));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });
});
