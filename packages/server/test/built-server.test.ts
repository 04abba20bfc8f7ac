import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { availableEngines, createTestDatabase } from './helpers.js';
import { startProcess, stop } from './server-process.js';
import { freePort } from './setup/services.js';

// The build bundles most dependencies into a few files (tsup.config.ts) and leaves some outside. This runs the
// built server a user starts and takes each path that loads a part of it on first use: the SQL parser, the batch
// planner's thread, the API explorer with its files, the engine's driver, the common-password list and jose.
describe.each(availableEngines())('the built server on %s', (engine) => {
  it('serves documents, SQL, large batches, sign-up, the API explorer and the dashboard', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-built-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    const env = {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATAPLATFORM_DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
    };
    const { child, url } = await startProcess(env, 'built');
    try {
      const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8'));
      const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
      const post = (path: string, body: unknown, extra: Record<string, string> = headers) =>
        fetch(`${url}${path}`, { method: 'POST', headers: extra, body: JSON.stringify(body) });

      // Past 64 KiB a batch is planned on a worker thread, whose script is a file of its own in the build.
      const operations = Array.from({ length: 1000 }, (_, i) => ({
        op: 'insert',
        collection: 'built',
        data: { i, text: 'x'.repeat(100) },
      }));
      const batch = await post('/api/v1/data/batch', { operations });
      expect(batch.status).toBe(200);
      expect((await batch.json()).results.filter((r: { status: number }) => r.status === 201)).toHaveLength(
        1000,
      );

      const sql = await post('/api/v1/data/sql', {
        sql: 'SELECT * FROM built WHERE i < ? ORDER BY i',
        params: [3],
      });
      expect(sql.status).toBe(200);
      expect((await sql.json()).data.map((doc: { i: number }) => doc.i)).toEqual([0, 1, 2]);

      const common = await post(
        '/api/auth/signup',
        { email: 'a@example.com', password: 'password123', name: 'A' },
        {
          'content-type': 'application/json',
        },
      );
      expect(common.status).toBe(400);
      const signup = await post(
        '/api/auth/signup',
        { email: 'b@example.com', password: 'a-long-unusual-pass', name: 'B' },
        {
          'content-type': 'application/json',
        },
      );
      expect(signup.status).toBe(201);
      const { token } = await signup.json();
      const me = await fetch(`${url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);

      const get = (path: string) => fetch(`${url}${path}`);
      const [page, css, document] = await Promise.all([
        get('/api-docs'),
        get('/api-docs/static/swagger-ui.css'),
        get('/api/openapi.json'),
      ]);
      expect([page.status, css.status, document.status]).toEqual([200, 200, 200]);
      expect(await page.text()).toContain('swagger');
      expect((await document.json()).info.version).toBe('1.0.0');

      // The dashboard ships inside the build (dist/dashboard/): any address under /dashboard is the app's page,
      // and its script is the build's gzip form, cached for good.
      const app = await get('/dashboard/documents/orders');
      expect(app.status).toBe(200);
      const script = (await app.text()).match(/src="(\/dashboard\/assets\/index-[^"]+\.js)"/)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe('gzip');
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    } finally {
      await stop(child, 'SIGTERM');
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
