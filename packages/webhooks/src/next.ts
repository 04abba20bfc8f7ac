/**
 * Next.js route handlers (App Router) that verify deliveries on the raw body, with Web Crypto, so they run on
 * the Node.js and the Edge runtime alike. Any `Request → Response` runtime can use them (Deno.serve, Bun.serve,
 * Cloudflare Workers).
 * @module
 */
import { parsePayload, refusal, type VerifiedWebhook, type WebhookAdapterOptions } from './adapter.js';
import { verifyAsync } from './web-crypto.js';

export type { VerifiedWebhook, WebhookAdapterOptions } from './adapter.js';

/**
 * A route handler that verifies the delivery (`request.arrayBuffer()`: never `request.json()`, whose result
 * cannot be verified) and then calls `handler` with it. A refused delivery is answered 400 `{ error, code }`.
 *
 * @example
 * // app/webhooks/route.ts
 * export const POST = webhookHandler<DataPlatformEvent>({ secret: process.env.WEBHOOK_SECRET! }, async ({ payload }) => {
 *   await handle(payload);
 *   return new Response(null, { status: 204 });
 * });
 */
export function webhookHandler<TPayload = unknown, TContext = unknown>(
  options: WebhookAdapterOptions,
  handler: (
    webhook: VerifiedWebhook<TPayload>,
    request: Request,
    context: TContext,
  ) => Response | Promise<Response>,
): (request: Request, context: TContext) => Promise<Response> {
  return async (request, context) => {
    const rawBody = new Uint8Array(await request.arrayBuffer());
    let payload: TPayload;
    try {
      await verifyAsync(rawBody, request.headers, options.secret, options);
      payload = parsePayload(rawBody) as TPayload;
    } catch (error) {
      return Response.json(refusal(error, options.onFailure), { status: 400 });
    }
    return handler({ payload, rawBody }, request, context);
  };
}
