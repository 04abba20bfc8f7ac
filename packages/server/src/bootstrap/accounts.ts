import { randomBytes } from 'node:crypto';
import { SCOPES } from '@dataplatform/contract';
import { generateApiKey } from '../auth/api-key.js';
import { hashPassword, NO_PASSWORD } from '../auth/passwords.js';
import { ulid } from '../ids.js';
import type { Storage } from '../storage/types.js';

/** What to create: a user with a billing account, a default cluster and one API key. */
export interface AccountSeed {
  email: string;
  name: string;
  /** `null` for an account that signs in through a provider only (until it sets a password by reset). */
  password: string | null;
  plan?: 'free' | 'starter' | 'team' | 'payg';
  /** Operator-set enterprise tier: no rate limit. */
  enterprise?: boolean;
  /** Length of the trial in days; 0 for none. */
  trialDays?: number;
  keyName?: string;
  scopes?: readonly string[];
  /** Expiry of the key (ISO 8601); none by default. */
  keyExpiresAt?: string | null;
}

/** The ids and the one-time key secret of a created account. */
export interface CreatedAccount {
  userId: string;
  clusterId: string;
  keyId: string;
  apiKey: string;
}

/** Adds an API key to an existing cluster and returns its id and one-time secret. */
export async function addApiKey(
  storage: Storage,
  owner: { userId: string; clusterId: string },
  options: { name?: string; scopes?: readonly string[]; expiresAt?: string | null } = {},
): Promise<{ keyId: string; apiKey: string }> {
  const key = generateApiKey();
  await storage.keys.create({
    id: key.id,
    clusterId: owner.clusterId,
    ownerId: owner.userId,
    name: options.name ?? 'key',
    scopes: [...(options.scopes ?? SCOPES)],
    secretHash: key.hash,
    createdAt: new Date().toISOString(),
    expiresAt: options.expiresAt ?? null,
  });
  return { keyId: key.id, apiKey: key.secret };
}

/** The ids of a created account. */
export interface NewAccountIds {
  userId: string;
  clusterId: string;
  createdAt: string;
}

/**
 * Creates a user (e-mail stored lower-case), their billing account and their default cluster in one transaction.
 * Throws EmailTakenError when the e-mail belongs to a user already.
 */
export async function createAccount(
  storage: Storage,
  seed: Omit<AccountSeed, 'keyName' | 'scopes' | 'keyExpiresAt'>,
): Promise<NewAccountIds> {
  const now = new Date();
  const userId = `usr_${ulid()}`;
  const clusterId = `cls_${ulid()}`;
  const trialDays = seed.trialDays ?? 0;
  const outcome = await storage.accounts.create({
    user: {
      id: userId,
      email: normalizeEmail(seed.email),
      name: seed.name,
      passwordHash: seed.password === null ? NO_PASSWORD : await hashPassword(seed.password),
      createdAt: now.toISOString(),
    },
    billing: {
      id: `bil_${ulid()}`,
      plan: seed.plan ?? 'free',
      trialExpiresAt: trialDays > 0 ? new Date(now.getTime() + trialDays * 86_400_000).toISOString() : null,
      enterprise: seed.enterprise ?? false,
    },
    cluster: {
      id: clusterId,
      name: 'default',
      region: 'local',
      tier: seed.enterprise ? 'enterprise' : 'free',
    },
  });
  if (outcome === 'email_taken') throw new EmailTakenError(seed.email);
  return { userId, clusterId, createdAt: now.toISOString() };
}

/** Creates a user, their billing account, their default cluster and an API key. */
export async function createAccountWithKey(storage: Storage, seed: AccountSeed): Promise<CreatedAccount> {
  const { userId, clusterId } = await createAccount(storage, seed);
  const key = await addApiKey(
    storage,
    { userId, clusterId },
    {
      name: seed.keyName ?? 'default',
      ...(seed.scopes ? { scopes: seed.scopes } : {}),
      expiresAt: seed.keyExpiresAt ?? null,
    },
  );
  return { userId, clusterId, ...key };
}

/** E-mail addresses are compared case-insensitively: they are stored and looked up lower-case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The e-mail address already belongs to a user. */
export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`A user with e-mail ${email} already exists`);
  }
}

/** A random password for generated accounts. */
export function randomPassword(): string {
  return randomBytes(18).toString('base64url');
}
