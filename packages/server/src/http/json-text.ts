import secureJson from 'secure-json-parse';
import { ApiError } from './errors.js';

/**
 * Parses a request body's text as JSON (an empty text is no body: undefined). `__proto__` and
 * `constructor.prototype` keys are refused so that no body can reach an object's prototype. Pure, so that it
 * can run on any thread: it throws ApiError 400 `invalid_json` and touches nothing else.
 */
export function parseJsonText(raw: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return secureJson.parse(raw, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const message =
      error instanceof SyntaxError
        ? `Malformed JSON body: ${error.message}`
        : 'Malformed JSON body: forbidden prototype property';
    throw new ApiError('invalid_json', message);
  }
}
