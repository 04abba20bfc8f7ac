import { APIConnectionError, APIConnectionTimeoutError } from '../core/error.js';
import { TransportTimeout } from './transport.js';

/** Where the client sends requests, and whether that address is only the built-in default. */
export interface Target {
  baseUrl: string;
  isDefault: boolean;
}

/** Finds `code` on an error, its cause chain, or an AggregateError's members (Node's happy-eyeballs connect). */
function hasCode(error: unknown, code: string, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (e.code === code) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => hasCode(inner, code, depth + 1))) return true;
  return hasCode(e.cause, code, depth + 1);
}

/** Turns a transport failure into the SDK's error, explaining a refused connection to the default address. */
export function connectionError(error: unknown, target: Target, requestId: string): APIConnectionError {
  if (error instanceof TransportTimeout)
    return new APIConnectionTimeoutError({ message: error.message, cause: error, requestId });
  if (hasCode(error, 'ECONNREFUSED')) {
    const message = target.isDefault
      ? `Connection refused by ${target.baseUrl}, the default base address (neither the \`baseUrl\` option nor ` +
        'the DATAPLATFORM_BASE_URL environment variable is set). Start the server there, or point the client at ' +
        'yours with `new DataPlatform({ baseUrl })` or DATAPLATFORM_BASE_URL.'
      : `Connection refused by ${target.baseUrl}: is the server running there?`;
    return new APIConnectionError({ message, cause: error, requestId });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new APIConnectionError({
    message: `Connection error (${target.baseUrl}): ${reason}`,
    cause: error,
    requestId,
  });
}
