/**
 * A Fastify plugin that verifies every request of the scope it is registered in on its raw body.
 * @module
 */
import type { FastifyPluginCallback } from 'fastify';
import {
  DEFAULT_BODY_LIMIT,
  parsePayload,
  refusal,
  type VerifiedWebhook,
  type WebhookAdapterOptions,
} from './adapter.js';
import { verify } from './node-crypto.js';

export type { VerifiedWebhook, WebhookAdapterOptions } from './adapter.js';

/** Options of `webhookPlugin`. */
export interface FastifyWebhookOptions extends WebhookAdapterOptions {
  /** Largest body read, in bytes; a larger one is answered 413 by Fastify. Default 4 MiB. */
  bodyLimit?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `webhookPlugin` from `@dataplatform/webhooks/fastify` once the delivery checked out. */
    webhook?: VerifiedWebhook;
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Verifies every request of the scope it is registered in, before validation and the handler: its body is
 * read raw whatever the content type, then `request.webhook` holds the verified delivery and `request.body` its
 * parsed payload. A refused delivery is answered 400 `{ error, code }`. Register it in a scope of its own,
 * beside the webhook routes, so that the rest of the app keeps Fastify's usual parsers.
 *
 * @example
 * app.register(async (scope) => {
 *   await scope.register(webhookPlugin, { secret: process.env.WEBHOOK_SECRET! });
 *   scope.post('/webhooks', async (request, reply) => reply.code(204).send());
 * });
 */
export const webhookPlugin: FastifyPluginCallback<FastifyWebhookOptions> = (scope, options, done) => {
  // Every content type is kept as raw bytes: none may reach a route unverified.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT },
    (_request, body, parsed) => parsed(null, body),
  );
  scope.addHook('preValidation', async (request, reply) => {
    const rawBody = request.body instanceof Uint8Array ? request.body : EMPTY;
    try {
      verify(rawBody, request.headers, options.secret, options);
      const payload = parsePayload(rawBody);
      request.webhook = { payload, rawBody };
      request.body = payload;
    } catch (error) {
      return reply.code(400).send(refusal(error, options.onFailure));
    }
  });
  done();
};

// What fastify-plugin does: the parser and hook above apply to the scope that registers the plugin, not only to
// a scope of the plugin's own, which would hold no routes.
Object.assign(webhookPlugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: '@dataplatform/webhooks',
});
