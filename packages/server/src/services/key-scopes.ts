import { checkGrantable, SCOPES } from '@dataplatform/contract';
import { rejectViolation } from '../http/validate.js';

/**
 * The scopes a user holds over their own account: all of them. (Team roles, when they come, narrow this; every
 * check of what an owner may give goes through here.)
 */
export function scopesOfUser(_userId: string): readonly string[] {
  return SCOPES;
}

/** Refuses with 403 `forbidden` any requested scope the grantor does not hold (`checkGrantable`). */
export function assertGrantable(requested: readonly string[], held: readonly string[]): void {
  rejectViolation(checkGrantable(requested, held));
}
