import { clusterActionOf, type RouteDefinition } from '@dataplatform/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { WebSocket } from 'ws';
import type { Authenticator } from '../auth/authenticate.js';
import { idempotencyContext } from '../services/idempotency.js';
import { keepBodyAsStream, keepBodyAsText } from './json-body.js';
import type { RouteCall, RouteHandler } from './route-call.js';
import { routeBody, routeParams, routeQuery } from './route-input.js';
import { sendAnswer } from './send-answer.js';

/** What serving the contract's routes needs besides the handlers. */
export interface RouteDeps {
  /** Checks the credential of `data` routes (API key or session), their scopes and rate limit. */
  auth: Authenticator;
  /** Refuses anything but a session token; runs first on `session` routes. */
  requireSession: onRequestHookHandler;
  /** The account's IP allowlist: runs on `ipGuarded` routes after the credential check, before the body is read. */
  ipAllowlist: onRequestHookHandler;
  /**
   * Body limits the server's configuration sets in place of a route's own (`bodyLimit` in its contract entry), by
   * route id; any other route with a limit of its own keeps the contract's.
   */
  ownBodyLimits: Readonly<Record<string, number>>;
  /** What serves an upgraded connection of a `websocket` route, by route id. */
  websockets?: Readonly<Record<string, (socket: WebSocket, request: FastifyRequest) => void>>;
}

/** How a route's body is read, from its contract entry. */
export type BodyMode = 'json' | 'text' | 'stream';

/**
 * A streamed body (an upload) is left unread for the handler; a route with a body limit of its own takes bodies
 * too large to parse on the event loop, so its body stays text for the service; any other body is parsed JSON.
 */
export function bodyModeOf(route: RouteDefinition): BodyMode {
  if (route.streamBody) return 'stream';
  if (route.bodyLimit !== undefined) return 'text';
  return 'json';
}

/**
 * The credential check of a route, from its `auth`, then the IP allowlist when it is `ipGuarded`: both before
 * the body is read.
 */
function credentialHooks(route: RouteDefinition, deps: RouteDeps): onRequestHookHandler[] {
  const guards = route.ipGuarded ? [deps.ipAllowlist] : [];
  if (route.auth === 'session') return [deps.requireSession, ...guards];
  if (route.auth === 'public') return guards;
  const scopes = route.scopes;
  const action = clusterActionOf(route);
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    request.principal = await deps.auth.authenticate(request, reply, scopes, action);
  };
  return [authenticate, ...guards];
}

function idempotencyOf(route: RouteDefinition, request: FastifyRequest) {
  if (!route.idempotent || !request.principal) return null;
  return idempotencyContext(
    request.principal.clusterId,
    request.headers['idempotency-key'],
    request.method,
    request.url.split('?')[0]!,
    request.rawBody ?? '',
  );
}

/**
 * Serves one contract route: credential check and scopes from `auth` and `scopes`, the body read as its mode says
 * within its limit, path, query and body checked once against the route's schemas (in that order, the
 * Idempotency-Key after the path), the handler called with the checked values, and its answer sent with the
 * documented success status. `scope` must parse bodies as the route's mode needs (see `serveRoutes`).
 */
export function registerRoute(
  scope: FastifyInstance,
  route: RouteDefinition,
  handle: RouteHandler,
  deps: RouteDeps,
): void {
  const mode = bodyModeOf(route);
  scope.route({
    method: route.method,
    url: route.path.replace(/\{(\w+)\}/g, ':$1'),
    ...(mode === 'text' ? { bodyLimit: deps.ownBodyLimits[route.id] ?? route.bodyLimit } : {}),
    onRequest: credentialHooks(route, deps),
    // An upgrade goes through the same hooks (the credential check), then to the route's WebSocket handler.
    ...(route.websocket ? { wsHandler: websocketHandler(route, deps) } : {}),
    handler: async (request, reply) => {
      const params = routeParams(route, request.params);
      const idempotency = idempotencyOf(route, request);
      const query = routeQuery(route, request.query);
      const body = mode === 'json' ? routeBody(route, request.body) : request.body;
      const principal = request.principal;
      const call = { request, reply, params, query, body, principal, idempotency } as RouteCall;
      return sendAnswer(route, reply, principal, await handle(call));
    },
  });
}

function websocketHandler(route: RouteDefinition, deps: RouteDeps) {
  const serve = deps.websockets?.[route.id];
  if (!serve) throw new Error(`No WebSocket handler for route ${route.id}`);
  return serve;
}

/**
 * Serves every route of `table` with its handler, keyed by operation id. Refuses to start when a route has no
 * handler or a handler no route, so the server and its contract cannot drift apart.
 */
export function serveRoutes(
  app: FastifyInstance,
  table: readonly RouteDefinition[],
  handlers: Readonly<Record<string, RouteHandler>>,
  deps: RouteDeps,
): void {
  const ids = new Set(table.map((route) => route.id));
  const orphans = Object.keys(handlers).filter((id) => !ids.has(id));
  if (orphans.length > 0) throw new Error(`No contract route for handler ${orphans.join(', ')}`);
  const missing = table.filter((route) => !Object.hasOwn(handlers, route.id)).map((route) => route.id);
  if (missing.length > 0) throw new Error(`No handler for route ${missing.join(', ')}`);
  const byMode = (mode: BodyMode) => table.filter((route) => bodyModeOf(route) === mode);
  for (const route of byMode('json')) registerRoute(app, route, handlers[route.id]!, deps);
  // Other body modes need content-type parsers of their own, so their routes live in scopes of their own.
  for (const [mode, keepBody] of [
    ['text', keepBodyAsText],
    ['stream', keepBodyAsStream],
  ] as const) {
    const scoped = byMode(mode);
    if (scoped.length === 0) continue;
    app.register(async (scope) => {
      keepBody(scope);
      for (const route of scoped) registerRoute(scope, route, handlers[route.id]!, deps);
    });
  }
}
