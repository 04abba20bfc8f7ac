import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ACCEPTABLE = /^[\w.:-]{1,128}$/;

// A random prefix per process and a counter: unique across instances, and far cheaper than a UUID per request.
const PREFIX = `req_${randomBytes(6).toString('hex')}`;
let counter = 0;

/** A new request id, for requests that bring none (or none that is sane), and for answers given without one. */
export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}${counter.toString(36).padStart(8, '0')}`;
}

/** The request's own X-Request-Id when it is a sane token, otherwise a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  if (typeof given === 'string' && ACCEPTABLE.test(given)) return given;
  return newRequestId();
}
