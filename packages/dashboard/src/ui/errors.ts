import { APIError } from '@dataplatform/sdk';
import { goToSignIn } from '../session.js';

/**
 * The text a page shows for a failed call: the server's message and code. A session that ended (401) sends the
 * browser to sign in again instead, since no page can do anything without one.
 */
export function describeError(error: unknown): string {
  if (error instanceof APIError) {
    if (error.status === 401) goToSignIn();
    return error.code ? `${error.message} (${error.code})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
