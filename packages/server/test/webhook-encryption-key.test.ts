import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { KEY_FILE, openSecretBox } from '../src/webhooks/encryption-key.js';
import { availableEngines, createTestDatabase } from './helpers.js';

/** A logger that keeps what was logged at error level. */
function recorder() {
  const errors: string[] = [];
  const log = { error: (message: string) => errors.push(message) } as unknown as FastifyBaseLogger;
  return { log, errors };
}

/** Stores a subscription whose secret was sealed with some key, as the service would. */
async function subscribeWith(storage: Storage, sealed: string) {
  const { clusterId } = await createAccountWithKey(storage, {
    email: `key-${randomBytes(4).toString('hex')}@example.com`,
    name: 'Key',
    password: 'long enough pw',
  });
  await storage.webhooks.create({
    id: 'wh_key',
    clusterId,
    url: 'http://127.0.0.1:9/',
    events: ['*'],
    collection: null,
    delivery: 'http',
    createdAt: new Date().toISOString(),
    secret: sealed,
  });
}

describe.each(availableEngines())('the key that encrypts webhook secrets on %s', (engine) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A storage of the engine and a data directory; `shared` reuses the database of an earlier one. */
  async function instance(shared?: { databaseUrl?: string; dataDir?: string }) {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-key-'));
    let databaseUrl = shared?.databaseUrl;
    if (engine === 'postgres' && !databaseUrl) {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      databaseUrl = database.url;
    }
    const storage: Storage = await openStorage({
      dataDir: shared?.dataDir ?? dataDir,
      databaseUrl,
      databasePoolSize: 2,
      sqliteSynchronous: 'NORMAL',
    });
    cleanups.push(async () => {
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    return { storage, dataDir: shared?.dataDir ?? dataDir, databaseUrl };
  }

  it('is made on first start, kept in the data directory (mode 0600), and used again after', async () => {
    const first = await instance();
    const { log, errors } = recorder();
    const box = await openSecretBox({ encryptionKey: undefined, dataDir: first.dataDir }, first.storage, log);
    expect(box).not.toBeNull();
    const file = join(first.dataDir, KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await openSecretBox(
      { encryptionKey: undefined, dataDir: first.dataDir },
      first.storage,
      log,
    );
    expect(again!.checkValue).toBe(box!.checkValue);
    const sealed = box!.seal('whsec_x', 'wh_1');
    expect(again!.open(sealed, 'wh_1')).toBe('whsec_x');
    expect(errors).toEqual([]);
  });

  it('is refused when it is not the key the stored secrets were encrypted with', async () => {
    const first = await instance();
    const configured = randomBytes(32).toString('base64');
    const { log, errors } = recorder();
    const box = await openSecretBox(
      { encryptionKey: configured, dataDir: first.dataDir },
      first.storage,
      log,
    );
    expect(box).not.toBeNull();
    expect(existsSync(join(first.dataDir, KEY_FILE))).toBe(false);
    // A secret encrypted with the recorded key exists: another key may not take its place.
    await subscribeWith(first.storage, box!.seal('whsec_x', 'wh_key'));

    const other = randomBytes(32).toString('base64');
    expect(
      await openSecretBox({ encryptionKey: other, dataDir: first.dataDir }, first.storage, log),
    ).toBeNull();
    expect(errors.at(-1)).toMatch(/another key than DATAPLATFORM_ENCRYPTION_KEY/);

    if (engine === 'postgres') {
      // A second instance with a data directory of its own and no key neither makes one nor leaves a file.
      const second = await instance({ databaseUrl: first.databaseUrl });
      expect(
        await openSecretBox({ encryptionKey: undefined, dataDir: second.dataDir }, second.storage, log),
      ).toBeNull();
      expect(existsSync(join(second.dataDir, KEY_FILE))).toBe(false);
      expect(errors.at(-1)).toMatch(/set DATAPLATFORM_ENCRYPTION_KEY to the same value on every instance/);
      expect(
        await openSecretBox({ encryptionKey: configured, dataDir: second.dataDir }, second.storage, log),
      ).not.toBeNull();
    }
  });

  it('is replaced on SQLite while no subscription holds a secret encrypted with the old one', async () => {
    const first = await instance();
    const { log, errors } = recorder();
    const key = () => randomBytes(32).toString('base64');
    const old = await openSecretBox({ encryptionKey: key(), dataDir: first.dataDir }, first.storage, log);
    const next = await openSecretBox({ encryptionKey: key(), dataDir: first.dataDir }, first.storage, log);
    if (engine === 'sqlite') {
      expect(next).not.toBeNull();
      expect(next!.checkValue).not.toBe(old!.checkValue);
      expect(errors).toEqual([]);
    } else {
      // Instances of PostgreSQL starting together with different keys must not take turns replacing it.
      expect(next).toBeNull();
    }
  });

  it('never reaches the database: only a check value is stored', async () => {
    const first = await instance();
    const { log } = recorder();
    await openSecretBox({ encryptionKey: undefined, dataDir: first.dataDir }, first.storage, log);
    const key = readFileSync(join(first.dataDir, KEY_FILE), 'utf8').trim();
    const recorded = await first.storage.webhooks.ensureKeyCheck('ignored', new Date().toISOString());
    expect(recorded).not.toContain(key);
    if (engine === 'sqlite') {
      const files = ['dataplatform.sqlite', 'dataplatform.sqlite-wal'].map((name) =>
        join(first.dataDir, name),
      );
      for (const path of files.filter(existsSync))
        expect(readFileSync(path).toString('latin1')).not.toContain(key);
    }
  });
});
