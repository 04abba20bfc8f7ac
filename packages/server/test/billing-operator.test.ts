import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PRICES } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, signUp, type TestServer } from './helpers.js';
import { expectError } from './key-helpers.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** `dataplatform-server credits grant …` as the operator runs it: its own process, on the server's database. */
function grantInAnotherProcess(t: TestServer, email: string, cents: number): Promise<number | null> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  if (t.databaseUrl) env.DATABASE_URL = t.databaseUrl;
  else env.DATAPLATFORM_DATA_DIR = t.dataDir;
  const child = spawn(
    process.execPath,
    [
      '--conditions=@dataplatform/source',
      '--import',
      'tsx',
      'src/bin.ts',
      'credits',
      'grant',
      email,
      String(cents),
    ],
    { cwd: PACKAGE_DIR, env, stdio: 'ignore' },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

forEachEngine(
  (server) => {
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    describe('credits granted by the operator command while the server runs', () => {
      it('lift the suspension of API keys the server had already checked, without a restart', async () => {
        const who = await signUp(t);
        const made = await t.call('POST', '/api/keys', {
          key: null,
          headers: bearer(who.token),
          body: { name: 'writer', scopes: ['data:read', 'data:write'] },
        });
        expect(made.status, await made.clone().text()).toBe(201);
        const { secret } = (await made.json()) as { secret: string };
        const write = () => t.call('POST', '/api/v1/data/orders', { key: secret, body: { total: 1 } });

        await t.server.storage.billing.grantCredits({ userId: who.user._id }, 3);
        const plan = await t.call('PUT', '/api/billing/plan', {
          key: null,
          headers: bearer(who.token),
          body: { plan: 'payg' },
        });
        expect(plan.status, await plan.clone().text()).toBe(200);
        for (let i = 0; i < 3; i++) expect((await write()).status).toBe(201);
        await t.server.app.billing.meter!.flush();
        await t.server.app.billing.tasks.chargePayg(new Date());
        // Refused twice: the second answer comes from the server's authentication cache.
        await expectError(await write(), 402, 'payment_required');
        await expectError(await write(), 402, 'payment_required');

        expect(await grantInAnotherProcess(t, who.email, 1000)).toBe(0);
        // SQLite hears the other process within a poll of the file, PostgreSQL at once; neither needs a restart.
        await expect.poll(async () => (await write()).status, { timeout: 10_000, interval: 50 }).toBe(201);
      }, 60_000);
    });
  },
  { config: { prices: { ...DEFAULT_PRICES, requests: { per: 1, cents: 1 } } } },
);
