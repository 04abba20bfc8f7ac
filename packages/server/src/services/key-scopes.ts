import { SCOPE_ALIASES, SCOPES } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';

/**
 * The scopes a user holds over their own account: all of them. (Team roles, when they come, narrow this; every
 * check of what an owner may give goes through here.)
 */
export function scopesOfUser(_userId: string): readonly string[] {
  return SCOPES;
}

const canonical = (scope: string) => SCOPE_ALIASES[scope] ?? scope;

/**
 * Refuses with 403 `forbidden` any requested scope the grantor does not hold. An alias counts as the scope it
 * stands for, both ways: holding `data:read` allows giving `database:read`.
 */
export function assertGrantable(requested: readonly string[], held: readonly string[]): void {
  const holds = new Set(held.map(canonical));
  const missing = requested.filter((scope) => !holds.has(canonical(scope)));
  if (missing.length > 0) {
    throw new ApiError('forbidden', `Cannot grant scopes the owner does not hold: ${missing.join(', ')}`, {
      scopes: missing,
    });
  }
}
