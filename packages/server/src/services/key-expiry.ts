import { ApiError } from '../http/errors.js';

/** An expiry choice of the dashboard. */
export type ExpiryChoice = 'never' | '30d' | '90d' | '1y';

const DAY_MS = 86_400_000;

/**
 * The expiry instant of a new key: `expiresIn` counted from `now` (a year is a calendar year), or `expiresAt`,
 * which must lie in the future; null for a key that never expires.
 */
export function expiryOf(
  input: { expiresIn?: ExpiryChoice | undefined; expiresAt?: string | undefined },
  now: number,
): string | null {
  if (input.expiresAt !== undefined) {
    const at = Date.parse(input.expiresAt);
    if (at <= now) {
      throw new ApiError('validation_error', 'Invalid body field "expiresAt": must lie in the future', {
        in: 'body',
        field: 'expiresAt',
      });
    }
    return new Date(at).toISOString();
  }
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
export function hasExpired(expiresAt: string | null, now: number): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
}
