import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-first-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('first start and restarts', () => {
  it('creates the development account once, writes dev-credentials.json (0600), and keeps acknowledged writes', async () => {
    const first = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'warn' });
    const file = join(dataDir, 'dev-credentials.json');
    const credentials = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(credentials).sort()).toEqual(['apiKey', 'baseUrl', 'email', 'password']);
    expect(credentials.apiKey).toMatch(/^svc_[0-9A-Za-z]{54}$/);
    expect(credentials.baseUrl).toBe(first.url);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const created = await fetch(`${first.url}/api/v1/data/kept`, {
      method: 'POST',
      headers: { 'x-api-key': credentials.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ survives: true }),
    });
    expect(created.status).toBe(201);
    const doc = await created.json();
    await first.close();

    const second = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'warn' });
    try {
      expect(second.devAccount).toBeNull();
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(credentials);
      const res = await fetch(`${second.url}/api/v1/data/kept/${doc._id}`, {
        headers: { 'x-api-key': credentials.apiKey },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(doc);
      const stored = readFileSync(join(dataDir, 'dataplatform.sqlite'));
      expect(stored.includes(Buffer.from(credentials.apiKey))).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('answers /healthz and /readyz', async () => {
    const server = await startServer({ port: 0, host: '127.0.0.1', dataDir: ':memory:', logLevel: 'warn' });
    try {
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({
        status: 'ready',
        engine: 'sqlite',
      });
    } finally {
      await server.close();
    }
  });
});
