import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { availableEngines, createTestDatabase } from './helpers.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A path inside a fresh temporary directory that does not exist yet, two levels deep. */
function missingDataDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'dataplatform-dir-'));
  roots.push(root);
  return join(root, 'not', 'yet');
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

describe.each(availableEngines())('the data directory on %s', (engine) => {
  it('is created when missing, readable by its owner only, with every file in it 0600', async () => {
    const dataDir = missingDataDir();
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: database?.url,
      logLevel: 'warn',
    });
    try {
      const credentials = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8'));
      // A write, so that SQLite has made its -wal and -shm files by now.
      const created = await fetch(`${server.url}/api/v1/data/files`, {
        method: 'POST',
        headers: { 'x-api-key': credentials.apiKey, 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(created.status).toBe(201);
      expect(modeOf(dataDir)).toBe(0o700);
      const files = readdirSync(dataDir);
      expect(files).toContain('encryption.key');
      if (engine === 'sqlite')
        expect(files).toEqual(
          expect.arrayContaining([
            'dataplatform.sqlite',
            'dataplatform.sqlite-wal',
            'dataplatform.sqlite-shm',
          ]),
        );
      for (const file of files) expect([file, modeOf(join(dataDir, file))]).toEqual([file, 0o600]);
    } finally {
      await server.close();
      await database?.drop();
    }
  });
});

describe('a data directory from an earlier version', () => {
  it('has its database files tightened to 0600 on start', async () => {
    const dataDir = missingDataDir();
    const first = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'warn' });
    await first.close();
    const database = join(dataDir, 'dataplatform.sqlite');
    writeFileSync(`${database}-shm`, '');
    for (const file of [database, `${database}-shm`]) chmodSync(file, 0o644);
    const second = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'warn' });
    try {
      for (const file of [database, `${database}-shm`, `${database}-wal`]) {
        if (existsSync(file)) expect([file, modeOf(file)]).toEqual([file, 0o600]);
      }
    } finally {
      await second.close();
    }
  });
});
