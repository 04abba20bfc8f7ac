/**
 * Express (and Connect or plain `node:http`) middleware that verifies deliveries on the raw body.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_BODY_LIMIT,
  parsePayload,
  refusal,
  type VerifiedWebhook,
  type WebhookAdapterOptions,
} from './adapter.js';
import { verify } from './node-crypto.js';

export type { VerifiedWebhook, WebhookAdapterOptions } from './adapter.js';

/** Options of `webhookMiddleware`. */
export interface ExpressWebhookOptions extends WebhookAdapterOptions {
  /** Largest body read, in bytes; a larger one is answered 413. Default 4 MiB. */
  bodyLimit?: number;
}

/** The request after `webhookMiddleware`: `webhook` holds the verified delivery and `body` its payload. */
export type WebhookRequest<TPayload = unknown> = IncomingMessage & {
  webhook: VerifiedWebhook<TPayload>;
  body: TPayload;
};

type Request = IncomingMessage & { body?: unknown; rawBody?: unknown };

/**
 * Verifies a delivery before the route runs. It reads the body itself, so mount it on the webhook route ahead
 * of any body parser; behind a global `express.json()`, give that parser `verify: keepRawBody` so the raw bytes
 * survive. A refused delivery is answered 400 `{ error, code }` and the route does not run.
 *
 * @example
 * app.post('/webhooks', webhookMiddleware({ secret: process.env.WEBHOOK_SECRET! }), (req, res) => {
 *   const { payload } = (req as WebhookRequest<DataPlatformEvent>).webhook;
 *   res.sendStatus(204);
 * });
 */
export function webhookMiddleware(options: ExpressWebhookOptions) {
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    rawBodyOf(req as Request, limit)
      .then((rawBody) => {
        if (rawBody === 'too large')
          return answer(res, 413, { error: `the body is over ${limit} bytes`, code: 'payload_too_large' });
        let payload: unknown;
        try {
          verify(rawBody, req.headers, options.secret, options);
          payload = parsePayload(rawBody);
        } catch (error) {
          return answer(res, 400, refusal(error, options.onFailure));
        }
        Object.assign(req, { webhook: { payload, rawBody }, body: payload });
        next();
      })
      .catch(next);
  };
}

/**
 * For `express.json({ verify: keepRawBody })` (body-parser's hook): keeps each body's raw bytes on the request,
 * so `webhookMiddleware` can verify them after the JSON parser ran.
 */
export function keepRawBody(req: IncomingMessage, _res: ServerResponse, buffer: Uint8Array): void {
  (req as Request).rawBody = buffer;
}

async function rawBodyOf(req: Request, limit: number): Promise<Uint8Array | 'too large'> {
  if (req.rawBody instanceof Uint8Array) return req.rawBody;
  if (req.body instanceof Uint8Array) return req.body; // express.raw()
  if (req.readableEnded) {
    // express.text() decoded the body; for the UTF-8 that deliveries are in, encoding it gives back the bytes.
    if (typeof req.body === 'string') return Buffer.from(req.body, 'utf8');
    throw new Error(
      'webhookMiddleware: another body parser read the request body without keeping its raw bytes; ' +
        'mount webhookMiddleware before express.json(), or pass express.json({ verify: keepRawBody })',
    );
  }
  return readBody(req, limit);
}

/** The body's bytes; 'too large' as soon as they pass the limit, the rest being read and dropped. */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Keep reading without keeping: destroying the request would cut the connection before the 413 answer.
      req.off('data', onData);
      req.resume();
      resolve('too large');
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: { error: string; code: string }): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
