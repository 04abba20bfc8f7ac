/**
 * The dataplatform API contract: schemas, the route table, error codes and scopes.
 * The server, the clients, the mocks and the OpenAPI document all derive from this package.
 * @packageDocumentation
 */
export * from './errors.js';
export * from './headers.js';
// LIKE patterns without the SQL parser: the server's query engines match them on every request, while the parser
// (the `./sql` entry) is loaded only by the SQL route.
export { type LikeToken, likeMatches, likeTokens } from './like.js';
export * from './rate-limits.js';
export * from './routes/index.js';
export * from './schemas/account.js';
export * from './schemas/activity.js';
export * from './schemas/api-key.js';
export * from './schemas/auth.js';
export * from './schemas/backup.js';
export * from './schemas/batch.js';
export * from './schemas/billing.js';
export * from './schemas/cluster.js';
export * from './schemas/common.js';
export * from './schemas/device.js';
export * from './schemas/document.js';
export * from './schemas/function.js';
export * from './schemas/intelligence.js';
export * from './schemas/job.js';
export * from './schemas/metrics.js';
export * from './schemas/notification.js';
export * from './schemas/realtime.js';
export * from './schemas/request-log.js';
export * from './schemas/schema.js';
export * from './schemas/settings.js';
export * from './schemas/sign-in.js';
export * from './schemas/sql.js';
export * from './schemas/trigger.js';
export * from './schemas/webhook.js';
export * from './scopes.js';
export * from './semantics/batch.js';
export * from './semantics/billing.js';
export * from './semantics/cluster-access.js';
export * from './semantics/clusters.js';
export * from './semantics/documents.js';
export * from './semantics/entity-tags.js';
export * from './semantics/functions.js';
export * from './semantics/idempotency.js';
export * from './semantics/import.js';
export * from './semantics/import-source.js';
export * from './semantics/intelligence.js';
export * from './semantics/ip-allowlist.js';
export * from './semantics/jobs.js';
export * from './semantics/json-media-type.js';
export * from './semantics/json-values.js';
export * from './semantics/keys.js';
export * from './semantics/notifications.js';
export * from './semantics/rate-limit.js';
// How every engine runs a grouped query: the storage engines build their SQL from it without the parser.
export { type GroupedQuery, type GroupPlan, groupPlan, isGroupedQuery } from './semantics/sql-groups.js';
export * from './semantics/types.js';
export * from './semantics/webhook-test.js';
export * from './semantics/webhooks.js';
