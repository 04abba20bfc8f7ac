import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ACCEPTABLE = /^[\w.:-]{1,128}$/;

/** The request's own X-Request-Id when it is a sane token, otherwise a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE.test(given)
    ? given
    : `req_${randomUUID().replaceAll('-', '')}`;
}
