import type { ErrorCode } from '../errors.js';
import { clusterActionOf } from '../semantics/cluster-access.js';
import { authRoutes } from './auth.js';
import { backupRoutes } from './backups.js';
import { batchRoutes } from './batch.js';
import { billingRoutes } from './billing.js';
import { clusterRoutes, memberRoutes } from './clusters.js';
import { dataRoutes } from './data.js';
import { deviceRoutes } from './device.js';
import { functionKeyRoutes, functionRoutes } from './functions.js';
import { intelligenceKeyRoutes, intelligenceRoutes } from './intelligence.js';
import { importRoutes, jobsRoutes } from './jobs.js';
import { keysRoutes } from './keys.js';
import { logsKeyRoutes, logsRoutes } from './logs.js';
import { metricsRoutes } from './metrics.js';
import { notificationRoutes } from './notifications.js';
import { realtimeRoutes } from './realtime.js';
import { robotsRoutes } from './robots.js';
import { indexRoutes, schemaKeyRoutes, schemaRoutes } from './schema.js';
import { settingsRoutes } from './settings.js';
import { identityProviderRoutes, webauthnRoutes } from './sign-in.js';
import { sqlRoutes } from './sql.js';
import { triggerKeyRoutes, triggerRoutes } from './triggers.js';
import type { RouteAuth, RouteDefinition } from './types.js';
import { webhookRoutes } from './webhooks.js';

export { authRoutes } from './auth.js';
export { backupRoutes } from './backups.js';
export { batchRoutes } from './batch.js';
export { billingRoutes, STRIPE_WEBHOOK_BODY_LIMIT } from './billing.js';
export { clusterRoutes, memberRoutes } from './clusters.js';
export { dataRoutes } from './data.js';
export { deviceRoutes } from './device.js';
export { functionKeyRoutes, functionRoutes } from './functions.js';
export { intelligenceKeyRoutes, intelligenceRoutes } from './intelligence.js';
export { importRoutes, jobsRoutes } from './jobs.js';
export { keysRoutes } from './keys.js';
export { logsKeyRoutes, logsRoutes } from './logs.js';
export { metricsRoutes } from './metrics.js';
export { notificationRoutes } from './notifications.js';
export { realtimeRoutes } from './realtime.js';
export { robotsRoutes } from './robots.js';
export { indexRoutes, schemaKeyRoutes, schemaRoutes } from './schema.js';
export { settingsRoutes } from './settings.js';
export { identityProviderRoutes, webauthnRoutes } from './sign-in.js';
export { sqlRoutes } from './sql.js';
export { triggerKeyRoutes, triggerRoutes } from './triggers.js';
export type { HttpMethod, RouteAuth, RouteDefinition } from './types.js';
export { webhookRoutes } from './webhooks.js';

/** Every route of the API. */
export const routes: readonly RouteDefinition[] = [
  ...dataRoutes,
  ...realtimeRoutes,
  ...sqlRoutes,
  ...batchRoutes,
  ...importRoutes,
  ...authRoutes,
  ...deviceRoutes,
  ...identityProviderRoutes,
  ...webauthnRoutes,
  ...settingsRoutes,
  ...logsRoutes,
  ...logsKeyRoutes,
  ...metricsRoutes,
  ...notificationRoutes,
  ...jobsRoutes,
  ...clusterRoutes,
  ...memberRoutes,
  ...billingRoutes,
  ...keysRoutes,
  ...robotsRoutes,
  ...webhookRoutes,
  ...schemaRoutes,
  ...indexRoutes,
  ...schemaKeyRoutes,
  ...functionRoutes,
  ...functionKeyRoutes,
  ...triggerRoutes,
  ...triggerKeyRoutes,
  ...backupRoutes,
  ...intelligenceRoutes,
  ...intelligenceKeyRoutes,
];

/** Look up a route by its operation id. */
export type RouteId =
  | (typeof dataRoutes)[number]['id']
  | (typeof realtimeRoutes)[number]['id']
  | (typeof sqlRoutes)[number]['id']
  | (typeof batchRoutes)[number]['id']
  | (typeof authRoutes)[number]['id']
  | (typeof deviceRoutes)[number]['id']
  | (typeof identityProviderRoutes)[number]['id']
  | (typeof webauthnRoutes)[number]['id']
  | (typeof settingsRoutes)[number]['id']
  | (typeof logsRoutes)[number]['id']
  | (typeof logsKeyRoutes)[number]['id']
  | (typeof metricsRoutes)[number]['id']
  | (typeof notificationRoutes)[number]['id']
  | (typeof importRoutes)[number]['id']
  | (typeof jobsRoutes)[number]['id']
  | (typeof clusterRoutes)[number]['id']
  | (typeof memberRoutes)[number]['id']
  | (typeof billingRoutes)[number]['id']
  | (typeof keysRoutes)[number]['id']
  | (typeof robotsRoutes)[number]['id']
  | (typeof webhookRoutes)[number]['id']
  | (typeof schemaRoutes)[number]['id']
  | (typeof indexRoutes)[number]['id']
  | (typeof schemaKeyRoutes)[number]['id']
  | (typeof functionRoutes)[number]['id']
  | (typeof functionKeyRoutes)[number]['id']
  | (typeof triggerRoutes)[number]['id']
  | (typeof triggerKeyRoutes)[number]['id']
  | (typeof backupRoutes)[number]['id']
  | (typeof intelligenceRoutes)[number]['id']
  | (typeof intelligenceKeyRoutes)[number]['id'];

const AUTH_ERRORS: Record<RouteAuth, readonly ErrorCode[]> = {
  data: [
    'unauthorized',
    'key_expired',
    'key_paused',
    'session_expired',
    'insufficient_scope',
    'forbidden',
    'rate_limited',
    'cluster_unavailable',
  ],
  session: ['unauthorized', 'session_expired'],
  public: [],
};

/**
 * Every error code a route can answer with: its own, those of its credential kind, those its shape implies (a JSON
 * body can be malformed, too large or of another media type; a path segment too long; a data write can meet a
 * suspended account), and those of any request
 * (a malformed URL is a `validation_error`, oversized headers `headers_too_large`, and `internal_error`).
 */
export function errorsOf(route: RouteDefinition): ErrorCode[] {
  const implied: ErrorCode[] = ['validation_error'];
  // A data write of a suspended account (payg, out of credits); reads still work.
  if (route.auth === 'data' && clusterActionOf(route) === 'data') implied.push('payment_required');
  if (route.params) implied.push('uri_too_long');
  if (route.body) implied.push('invalid_json', 'invalid_body', 'payload_too_large', 'unsupported_media_type');
  return [
    ...new Set<ErrorCode>([
      ...route.errors,
      ...implied,
      ...AUTH_ERRORS[route.auth],
      'headers_too_large',
      'internal_error',
    ]),
  ];
}

/** The route with this operation id. */
export function routeById(id: string): RouteDefinition {
  const route = routes.find((r) => r.id === id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}
