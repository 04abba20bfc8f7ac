import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareDataDir } from '../data-dir.js';
import type { Storage } from '../storage/types.js';
import { createAccountWithKey, EmailTakenError, randomPassword } from './accounts.js';

/** The first-start credentials written to `<data dir>/dev-credentials.json`. */
export interface DevCredentials {
  email: string;
  password: string;
  apiKey: string;
  baseUrl: string;
}

/** The development account made on first start: its credentials and ids. */
export interface DevAccount extends DevCredentials {
  userId: string;
  clusterId: string;
  keyId: string;
}

/**
 * On first start in development mode (no user yet) creates the development account on the enterprise tier with an all-scopes key,
 * writes the credentials file (mode 0600) and returns them; returns null when the database already has users.
 */
export async function ensureDevAccount(
  storage: Storage,
  dataDir: string,
  baseUrl: string,
): Promise<DevAccount | null> {
  if ((await storage.accounts.countUsers()) > 0) return null;
  const password = randomPassword();
  const email = 'dev@dataplatform.local';
  let created: Awaited<ReturnType<typeof createAccountWithKey>>;
  try {
    created = await createAccountWithKey(storage, {
      email,
      name: 'Development',
      password,
      plan: 'team',
      enterprise: true,
      keyName: 'development',
    });
  } catch (error) {
    // Another instance starting on the same database made it first.
    if (error instanceof EmailTakenError) return null;
    throw error;
  }
  const credentials = { email, password, apiKey: created.apiKey, baseUrl };
  if (dataDir !== ':memory:') {
    prepareDataDir(dataDir);
    writeFileSync(join(dataDir, 'dev-credentials.json'), `${JSON.stringify(credentials, null, 2)}\n`, {
      mode: 0o600,
    });
  }
  return { ...credentials, userId: created.userId, clusterId: created.clusterId, keyId: created.keyId };
}
