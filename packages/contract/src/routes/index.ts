import type { ErrorCode } from '../errors.js';
import { batchRoutes } from './batch.js';
import { dataRoutes } from './data.js';
import { sqlRoutes } from './sql.js';
import type { RouteAuth, RouteDefinition } from './types.js';
import { webhookRoutes } from './webhooks.js';

export { batchRoutes } from './batch.js';
export { dataRoutes } from './data.js';
export { sqlRoutes } from './sql.js';
export type { HttpMethod, RouteAuth, RouteDefinition } from './types.js';
export { webhookRoutes } from './webhooks.js';

/** Every route of the API. */
export const routes: readonly RouteDefinition[] = [
  ...dataRoutes,
  ...sqlRoutes,
  ...batchRoutes,
  ...webhookRoutes,
];

/** Look up a route by its operation id. */
export type RouteId =
  | (typeof dataRoutes)[number]['id']
  | (typeof sqlRoutes)[number]['id']
  | (typeof batchRoutes)[number]['id']
  | (typeof webhookRoutes)[number]['id'];

const AUTH_ERRORS: Record<RouteAuth, readonly ErrorCode[]> = {
  data: [
    'unauthorized',
    'key_expired',
    'key_paused',
    'session_expired',
    'insufficient_scope',
    'rate_limited',
    'cluster_unavailable',
  ],
  session: ['unauthorized', 'session_expired'],
  public: [],
};

/** Every error code a route can answer with: its own, those of its credential kind, and `internal_error`. */
export function errorsOf(route: RouteDefinition): ErrorCode[] {
  return [...new Set<ErrorCode>([...route.errors, ...AUTH_ERRORS[route.auth], 'internal_error'])];
}

/** The route with this operation id. */
export function routeById(id: string): RouteDefinition {
  const route = routes.find((r) => r.id === id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}
