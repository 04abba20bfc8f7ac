import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { createTestDatabase, type Engine } from './helpers.js';
import { startProcess, stop } from './server-process.js';
import { freePort } from './setup/services.js';

/**
 * The reference server in a process of its own, for tests that SIGKILL it: over a fresh data directory (and, on
 * PostgreSQL, a fresh database) that outlive the process, signed in as its development account. `call` answers
 * the JSON of a dashboard route with the session, `ended` waits for a job to end; `kill` ends the process with SIGKILL and `restart` starts it
 * again on the same data; `close` stops it and removes the data. `settings` are further environment variables.
 */
export async function crashServer(engine: Engine, prefix: string, settings: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const database = engine === 'postgres' ? await createTestDatabase() : undefined;
  const env = {
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATAPLATFORM_DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    ...settings,
  };
  let server = await startProcess(env);
  const { apiKey, email, password } = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8'));
  const signIn = await fetch(`${server.url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { token } = (await signIn.json()) as { token: string };
  return {
    dataDir,
    databaseUrl: database?.url,
    apiKey: apiKey as string,
    get url() {
      return server.url;
    },
    async call(method: string, path: string, body?: unknown) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    /**
     * The job (`GET /api/jobs/{id}`) once it ended: at the restart on SQLite, within a sweep (30 s) on PostgreSQL.
     */
    ended(jobId: string, timeout = 90_000) {
      return vi.waitFor(
        async () => {
          const job = (await this.call('GET', `/api/jobs/${jobId}`)).body;
          expect(['succeeded', 'failed']).toContain(job.status);
          return job;
        },
        { timeout, interval: 200 },
      );
    },
    kill: () => stop(server.child, 'SIGKILL'),
    async restart() {
      server = await startProcess(env, 'source', { credentials: false });
    },
    async close() {
      await stop(server.child, 'SIGTERM');
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
