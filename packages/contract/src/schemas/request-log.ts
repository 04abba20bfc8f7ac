import { z } from 'zod';
import { fromQuery, listEnvelope, Timestamp } from './common.js';

/** Days request logs are kept unless the server says otherwise (`DATAPLATFORM_LOG_RETENTION_DAYS`). */
export const DEFAULT_LOG_RETENTION_DAYS = 7;

/** One request the server answered, as the request log keeps it. */
export const RequestLogEntry = z
  .object({
    _id: z.string(),
    t: Timestamp.meta({ description: 'When the answer was sent' }),
    method: z.string(),
    path: z.string().meta({
      description:
        'Path and query string as sent, with the values of credential-like query parameters (token, key, secret, password, code, signature, …) replaced by `[redacted]`',
    }),
    status: z.number().int(),
    durationMs: z.number().min(0).meta({ description: 'From the request read to the answer sent' }),
    keyId: z
      .string()
      .nullable()
      .meta({ description: 'The API key the request was made with, when one was known' }),
    userId: z
      .string()
      .nullable()
      .meta({ description: 'The signed-in user, for a request with a session token' }),
    ip: z.string(),
    userAgent: z.string().nullable(),
    requestId: z.string().meta({ description: 'The X-Request-Id of the request' }),
  })
  .meta({ id: 'RequestLogEntry', description: 'One request and its answer, with no secret in it.' });

/** A status code, or a class of them such as `4xx`. */
const StatusFilter = z
  .string()
  .regex(/^([1-5][0-9][0-9]|[1-5]xx)$/, 'Must be a status code (404) or a class of them (4xx)')
  .meta({ description: 'A status code (`404`) or a class of them (`4xx`)', example: '5xx' });

/** Filters and page of the request log. */
export const RequestLogQuery = z.object({
  status: StatusFilter.optional(),
  method: z
    .enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
    .optional()
    .meta({ description: 'Only requests of this method' }),
  path: z.string().min(1).max(2048).optional().meta({ description: 'Only paths that start with this' }),
  keyId: z.string().min(1).max(128).optional().meta({ description: 'Only requests made with this key' }),
  clusterId: z.string().min(1).max(128).optional().meta({ description: 'Only requests to this cluster' }),
  from: Timestamp.optional().meta({ description: 'Only requests answered at or after this instant' }),
  to: Timestamp.optional().meta({ description: 'Only requests answered before this instant' }),
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(50).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(z.coerce.number().int().min(0).default(0).meta({ description: 'Entries to skip' })),
});

/** One page of the request log, newest first. */
export const RequestLogList = listEnvelope(RequestLogEntry, 'RequestLogList');

/** Path of one logged request. */
export const RequestLogParams = z.object({ requestId: z.string().min(1).max(128) });

/** A request log entry. */
export type RequestLogEntry = z.infer<typeof RequestLogEntry>;
/** Filters of the request log. */
export type RequestLogQuery = z.infer<typeof RequestLogQuery>;

/** Query parameters whose values are credentials, or could be: their values never reach the log. */
const SECRET_PARAMETER =
  /token|key|secret|passw|signature|sig$|code|auth|session|credential|state|otp|nonce/i;

/**
 * The path and query of a request as the log keeps it: the value of every query parameter whose name looks like a
 * credential becomes `[redacted]`, and so does any value that looks like an API key or a JWT, whatever its name.
 */
export function redactRequestTarget(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return redactSegments(url);
  const path = redactSegments(url.slice(0, q));
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part;
      const name = part.slice(0, eq);
      const value = part.slice(eq + 1);
      let decodedName = name;
      let decodedValue = value;
      try {
        decodedName = decodeURIComponent(name);
        decodedValue = decodeURIComponent(value);
      } catch {}
      return SECRET_PARAMETER.test(decodedName) || looksSecret(decodedValue) ? `${name}=[redacted]` : part;
    });
  return `${path}?${parts.join('&')}`;
}

/** An API key (`svc_…`) or a JWT (three base64url parts, the first `eyJ`). */
function looksSecret(value: string): boolean {
  return /svc_[A-Za-z0-9_-]{8,}/.test(value) || /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./.test(value);
}

/** Path segments that carry a secret (an API key or a JWT pasted into a path) are cut too. */
function redactSegments(path: string): string {
  if (!path.includes('svc_') && !path.includes('eyJ')) return path;
  return path
    .split('/')
    .map((segment) => (looksSecret(segment) ? '[redacted]' : segment))
    .join('/');
}
/** A page of the request log. */
export type RequestLogList = z.infer<typeof RequestLogList>;
