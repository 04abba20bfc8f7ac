import { z } from 'zod';
import { SCOPES } from '../scopes.js';
import { fromQuery, label, Timestamp } from './common.js';

/** What a key's record says about whether it works: `expired` is derived from `expiresAt`. */
export const API_KEY_STATUSES = ['active', 'paused', 'expired'] as const;

/** The expiry choices of the dashboard; a custom date is sent as `expiresAt` instead. */
export const API_KEY_EXPIRY_CHOICES = ['never', '30d', '90d', '1y'] as const;

/** Outcomes in a key's usage history: 401, 403 and 429 answers are `denied`, every other answer `success`. */
export const USAGE_OUTCOMES = ['success', 'denied'] as const;

/** Statuses of requests refused by authentication, authorization or the rate limit. */
export const DENIED_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

/** The outcome a key's usage history gives an answer with this status. */
export function usageOutcomeOf(status: number): (typeof USAGE_OUTCOMES)[number] {
  return DENIED_STATUSES.has(status) ? 'denied' : 'success';
}

/** A key's free-text label. */
const KeyName = label(100).meta({ description: 'Free-text label', example: 'CI deploys' });

/** The scopes a key holds: known scope names (aliases included), no repeats. */
const KeyScopes = z
  .array(z.enum(SCOPES))
  .min(1)
  .refine((scopes) => new Set(scopes).size === scopes.length, 'Scopes must not repeat')
  .meta({
    description: 'Scopes the key holds; at most those of its owner',
    example: ['data:read'],
    uniqueItems: true,
  });

/** An API key as the dashboard shows it; never carries the secret. */
export const ApiKey = z
  .object({
    _id: z
      .string()
      .meta({ description: 'Key id; also the part of the secret after `svc_` that is not secret' }),
    name: z.string(),
    prefix: z.string().meta({
      description: 'The start of the secret (`svc_` and the key id), to recognise the key by',
      example: 'svc_3fKq9ZxW2bLmN8pR',
    }),
    scopes: z.array(z.string()),
    status: z.enum(API_KEY_STATUSES),
    clusterId: z.string(),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
    lastRotatedAt: Timestamp.nullable(),
  })
  .meta({
    id: 'ApiKey',
    description: 'An API key. The secret is shown only when the key is created or rotated.',
  });

/** Request to create an API key. */
export const ApiKeyCreate = z
  .object({
    name: KeyName,
    scopes: KeyScopes,
    clusterId: z
      .string()
      .optional()
      .meta({ description: "One of the owner's clusters; the default cluster when left out" }),
    expiresIn: z
      .enum(API_KEY_EXPIRY_CHOICES)
      .optional()
      .meta({ description: 'Expiry counted from now; `never` by default' }),
    expiresAt: Timestamp.optional().meta({
      description: 'A custom expiry: any future instant (instead of `expiresIn`)',
    }),
  })
  .strict()
  .refine((body) => body.expiresIn === undefined || body.expiresAt === undefined, {
    message: 'Send expiresIn or expiresAt, not both',
    path: ['expiresAt'],
  })
  .meta({
    id: 'ApiKeyCreate',
    description: 'A new API key. `expiresIn` and `expiresAt` exclude each other.',
    not: { required: ['expiresIn', 'expiresAt'] },
  });

/** A key together with its secret: the answer to creation and to rotation, the only times the secret is shown. */
export const ApiKeyWithSecret = z
  .object({
    key: ApiKey,
    secret: z.string().meta({
      description: '`svc_` + key id (16) + secret (32) + checksum (6), base62; shown once',
      example: 'svc_3fKq9ZxW2bLmN8pR…',
    }),
  })
  .meta({ id: 'ApiKeyWithSecret', description: 'A key and its secret, shown once.' });

/** Every key of the caller. */
export const ApiKeyList = z
  .object({ data: z.array(ApiKey) })
  .meta({ id: 'ApiKeyList', description: 'The API keys of the caller, newest first.' });

/** One request made with a key. */
export const ApiKeyUsageEntry = z
  .object({
    method: z.string(),
    path: z.string(),
    outcome: z.enum(USAGE_OUTCOMES),
    status: z.number().int(),
    timestamp: Timestamp,
    ip: z.string(),
    userAgent: z.string().nullable(),
  })
  .meta({
    id: 'ApiKeyUsageEntry',
    description: 'A request made with an API key, as its usage history records it.',
  });

/** Query of a key's usage history. */
export const ApiKeyUsageQuery = z.object({
  outcome: z.enum(USAGE_OUTCOMES).optional().meta({ description: 'Only entries with this outcome' }),
  limit: fromQuery(z.coerce.number().int().min(1).max(1000).default(50)),
  skip: fromQuery(z.coerce.number().int().min(0).default(0)),
});

/** One page of a key's usage history, newest first. */
export const ApiKeyUsagePage = z
  .object({
    data: z.array(ApiKeyUsageEntry),
    total: z.number().int().min(0).meta({ description: 'Number of matching entries across all pages' }),
  })
  .meta({ id: 'ApiKeyUsagePage', description: "A page of a key's usage history, newest first." });

/** A robot: a named service identity owned by a user, which owns API keys of its own. */
export const Robot = z
  .object({
    _id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()).meta({ description: 'The most its keys may hold' }),
    createdAt: Timestamp,
  })
  .meta({
    id: 'Robot',
    description: "A service account owned by a user; its keys keep working when a person's account changes.",
  });

/** Request to create a robot. */
export const RobotCreate = z
  .object({
    name: KeyName,
    scopes: KeyScopes.optional().meta({
      description: "The most its keys may hold; all of the owner's scopes by default",
    }),
  })
  .strict()
  .meta({ id: 'RobotCreate', description: 'A new robot.' });

/** The robots of the caller. */
export const RobotList = z
  .object({ data: z.array(Robot) })
  .meta({ id: 'RobotList', description: 'The robots of the caller, newest first.' });

/** Path parameters naming a key: its id, the part of the secret after `svc_` that is not secret. */
export const ApiKeyParams = z.object({ id: z.string().min(1).max(64) });

/** Path parameters naming a robot. */
export const RobotParams = z.object({ id: z.string().min(1).max(64) });

export type ApiKey = z.infer<typeof ApiKey>;
export type ApiKeyCreate = z.input<typeof ApiKeyCreate>;
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;
export type ApiKeyList = z.infer<typeof ApiKeyList>;
export type ApiKeyUsageEntry = z.infer<typeof ApiKeyUsageEntry>;
export type ApiKeyUsagePage = z.infer<typeof ApiKeyUsagePage>;
export type Robot = z.infer<typeof Robot>;
export type RobotCreate = z.input<typeof RobotCreate>;
export type RobotList = z.infer<typeof RobotList>;
