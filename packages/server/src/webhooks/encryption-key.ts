import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage/types.js';
import { SecretBox } from './secret-box.js';

/** The file in the data directory that keeps a generated key when none is configured. */
export const KEY_FILE = 'encryption.key';

function readKeyFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The box that encrypts signing secrets, or null when this instance cannot hold the key the stored secrets
 * were encrypted with (it then neither creates subscriptions nor delivers; writes still capture events).
 *
 * The key is `DATAPLATFORM_ENCRYPTION_KEY`, else the one kept in `<data dir>/encryption.key`, else one made now
 * and kept there. It is never stored in the database: the database only records a check value, so that every
 * instance notices a key other than the first one's (several instances on PostgreSQL share one by
 * configuration or by a shared data directory; see docs/deployment.md).
 */
export async function openSecretBox(
  options: { encryptionKey: string | undefined; dataDir: string },
  storage: Storage,
  log: FastifyBaseLogger,
): Promise<SecretBox | null> {
  const now = new Date().toISOString();
  const file = options.dataDir === ':memory:' ? undefined : join(options.dataDir, KEY_FILE);
  const material = options.encryptionKey ?? (file && readKeyFile(file));
  if (material) {
    const box = new SecretBox(material);
    if ((await storage.webhooks.ensureKeyCheck(box.checkValue, now)) === box.checkValue) return box;
    // A database without subscriptions has nothing encrypted with the old key, so another key may take its place.
    // SQLite does so (one writer: no other instance can be creating a subscription meanwhile); PostgreSQL never
    // does (`replaceKeyCheckIfUnused` is false there): instances that start together with different keys must not
    // take turns replacing it.
    if (await storage.webhooks.replaceKeyCheckIfUnused(box.checkValue)) return box;
    log.error(
      `Webhook secrets in this database were encrypted with another key than ${options.encryptionKey ? 'DATAPLATFORM_ENCRYPTION_KEY' : file}: this instance will not create subscriptions or deliver events (see docs/deployment.md)`,
    );
    return null;
  }
  const generated = randomBytes(32).toString('base64');
  const box = new SecretBox(generated);
  // Written before it is recorded: a crash in between leaves a key file that matches nothing yet, never a
  // recorded key that no file holds.
  if (file) writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  if ((await storage.webhooks.ensureKeyCheck(box.checkValue, now)) === box.checkValue) return box;
  if (await storage.webhooks.replaceKeyCheckIfUnused(box.checkValue)) return box;
  if (file) unlinkSync(file);
  log.error(
    'Webhook secrets in this database were encrypted with a key this instance does not have: set DATAPLATFORM_ENCRYPTION_KEY to the same value on every instance (see docs/deployment.md). This instance will not create subscriptions or deliver events.',
  );
  return null;
}
