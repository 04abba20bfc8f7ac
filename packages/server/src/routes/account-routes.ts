import { isJsonObject, type RouteDefinition } from '@dataplatform/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiError } from '../http/errors.js';
import { validate } from '../http/validate.js';

/** A validated call of a dashboard or account route. */
export interface AccountCall<Body = unknown, Query = unknown> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The body parsed by the route's schema (undefined for routes without one). */
  body: Body;
  /** The query parsed by the route's schema. */
  query: Query;
}

/** A route's handler: the validated call in, the answer's JSON body out. */
// biome-ignore lint/suspicious/noExplicitAny: each handler names the body and query types of its own route.
export type AccountHandler = (call: AccountCall<any, any>) => Promise<unknown>;

/** Hooks a route runs before its body is read, beyond the session check its `auth` implies. */
export type ExtraHooks = Partial<Record<string, onRequestHookHandler[]>>;

/**
 * Registers contract routes of kind `session` or `public`: `session` routes run `requireSession` first
 * (so API keys get 401), then any extra hooks (such as the IP allowlist); the body and query are validated with
 * the route's schemas; the handler's answer goes out with the route's success status.
 */
export function registerAccountRoutes(
  app: FastifyInstance,
  table: readonly RouteDefinition[],
  handlers: Record<string, AccountHandler>,
  requireSession: onRequestHookHandler,
  extraHooks: ExtraHooks = {},
): void {
  for (const route of table) {
    const handle = handlers[route.id];
    if (!handle) throw new Error(`No handler for route ${route.id}`);
    const hooks = [...(route.auth === 'session' ? [requireSession] : []), ...(extraHooks[route.id] ?? [])];
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      onRequest: hooks,
      handler: async (request, reply) => {
        let body: unknown;
        if (route.body) {
          if (!isJsonObject(request.body)) throw new ApiError('invalid_body', 'Body must be a JSON object');
          body = validate(route.body, request.body, 'body');
        }
        const query = route.query ? validate(route.query, request.query, 'query') : undefined;
        const answer = await handle({ request, reply, body, query });
        return reply.code(route.success.status).type('application/json; charset=utf-8').send(answer);
      },
    });
  }
}
