/**
 * Hono middleware that verifies deliveries on the raw body, with Web Crypto, in every runtime Hono runs on.
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { parsePayload, refusal, type VerifiedWebhook, type WebhookAdapterOptions } from './adapter.js';
import type { Secrets } from './secrets.js';
import { verifyAsync } from './web-crypto.js';

export type { VerifiedWebhook, WebhookAdapterOptions } from './adapter.js';

/** The variables `webhookMiddleware` sets: `c.get('webhook')`. */
export interface WebhookVariables<TPayload = unknown> {
  webhook: VerifiedWebhook<TPayload>;
}

/** Options of `webhookMiddleware`: the secret may come from the request's context, e.g. `c.env` on Workers. */
export interface HonoWebhookOptions extends Omit<WebhookAdapterOptions, 'secret'> {
  secret: Secrets | ((c: Context) => Secrets | Promise<Secrets>);
}

/**
 * Verifies a delivery before the route runs, on the body's bytes (`c.req.arrayBuffer()`, which Hono caches, so
 * the route can still read the body). `c.get('webhook')` then holds the verified delivery. A refused delivery is
 * answered 400 `{ error, code }`.
 *
 * @example
 * app.post('/webhooks', webhookMiddleware<DataPlatformEvent>({ secret: (c) => c.env.WEBHOOK_SECRET }), (c) => {
 *   const { payload } = c.get('webhook');
 *   return c.body(null, 204);
 * });
 */
export function webhookMiddleware<TPayload = unknown>(
  options: HonoWebhookOptions,
): MiddlewareHandler<{ Variables: WebhookVariables<TPayload> }> {
  return async (c, next) => {
    const secret = typeof options.secret === 'function' ? await options.secret(c) : options.secret;
    const rawBody = new Uint8Array(await c.req.arrayBuffer());
    let payload: TPayload;
    try {
      await verifyAsync(rawBody, c.req.raw.headers, secret, options);
      payload = parsePayload(rawBody) as TPayload;
    } catch (error) {
      return c.json(refusal(error, options.onFailure), 400);
    }
    c.set('webhook', { payload, rawBody });
    await next();
  };
}
