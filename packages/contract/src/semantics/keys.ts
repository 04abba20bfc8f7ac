import type { API_KEY_EXPIRY_CHOICES } from '../schemas/api-key.js';
import { SCOPE_ALIASES } from '../scopes.js';
import type { Violation } from './documents.js';

/** An expiry choice of the dashboard. */
export type KeyExpiryChoice = (typeof API_KEY_EXPIRY_CHOICES)[number];

/** What a key's expiry is asked as: a choice counted from now, or an instant. */
export interface KeyExpiryInput {
  expiresIn?: KeyExpiryChoice | undefined;
  expiresAt?: string | undefined;
}

const DAY_MS = 86_400_000;

/** 400 when a new key's `expiresAt` does not lie after `now` (milliseconds); null otherwise. */
export function checkKeyExpiry(input: KeyExpiryInput, now: number): Violation | null {
  if (input.expiresAt === undefined || Date.parse(input.expiresAt) > now) return null;
  return {
    code: 'validation_error',
    message: 'Invalid body field "expiresAt": must lie in the future',
    details: { in: 'body', field: 'expiresAt' },
  };
}

/**
 * The expiry instant of a new key: `expiresAt`, or `expiresIn` counted from `now` (a year is a calendar year);
 * null for a key that never expires. Check `expiresAt` with `checkKeyExpiry` first.
 */
export function keyExpiresAt(input: KeyExpiryInput, now: number): string | null {
  if (input.expiresAt !== undefined) return new Date(Date.parse(input.expiresAt)).toISOString();
  switch (input.expiresIn ?? 'never') {
    case 'never':
      return null;
    case '30d':
      return new Date(now + 30 * DAY_MS).toISOString();
    case '90d':
      return new Date(now + 90 * DAY_MS).toISOString();
    case '1y': {
      const date = new Date(now);
      date.setUTCFullYear(date.getUTCFullYear() + 1);
      return date.toISOString();
    }
  }
}

/** True once a key's expiry instant has come. */
export function keyHasExpired(expiresAt: string | null, now: number): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
}

/** The status a key's record shows: `expired` once its expiry instant has come, else the stored one. */
export function keyStatusAt<S extends string>(
  status: S,
  expiresAt: string | null,
  now: number,
): S | 'expired' {
  return keyHasExpired(expiresAt, now) ? 'expired' : status;
}

/**
 * 409 for a change a key cannot take: an expired key cannot be paused, resumed or rotated, and a paused one
 * cannot be rotated; null when it can.
 */
export function checkKeyChange(
  key: { status: string; expiresAt: string | null },
  change: 'paused' | 'resumed' | 'rotated',
  now: number,
): Violation | null {
  if (keyHasExpired(key.expiresAt, now))
    return { code: 'conflict', message: `An expired key cannot be ${change}; create a new key instead` };
  if (change === 'rotated' && key.status === 'paused')
    return { code: 'conflict', message: 'A paused key cannot be rotated; resume it first' };
  return null;
}

const canonical = (scope: string) => SCOPE_ALIASES[scope] ?? scope;

/**
 * 403 `forbidden` naming the requested scopes the grantor does not hold; null when it holds them all. An alias
 * counts as the scope it stands for, both ways: holding `data:read` allows giving `database:read`.
 */
export function checkGrantable(requested: readonly string[], held: readonly string[]): Violation | null {
  const holds = new Set(held.map(canonical));
  const missing = requested.filter((scope) => !holds.has(canonical(scope)));
  if (missing.length === 0) return null;
  return {
    code: 'forbidden',
    message: `Cannot grant scopes the owner does not hold: ${missing.join(', ')}`,
    details: { scopes: missing },
  };
}

/** 404 for a key the owner does not have. */
export function keyNotFound(id: string): Violation {
  return { code: 'not_found', message: `API key ${id} not found` };
}

/** 404 for a robot the user does not have. */
export function robotNotFound(id: string): Violation {
  return { code: 'not_found', message: `Robot ${id} not found` };
}
