import { ActivityList, ActivityQuery } from '../schemas/activity.js';
import {
  RequestLogEntry,
  RequestLogList,
  RequestLogParams,
  RequestLogQuery,
} from '../schemas/request-log.js';
import type { RouteDefinition } from './types.js';

const tag = 'logs';

/** Said of every request-log route. */
const REQUEST_LOG =
  'Every request the server answered, newest first, kept `DATAPLATFORM_LOG_RETENTION_DAYS` days (7 by default). Entries reach the log within a second of the answer. Credential-like query values are `[redacted]`; no header is kept.';

/** Logs of an account under /api/logs. */
export const logsRoutes = [
  {
    id: 'logs.activity',
    method: 'GET',
    path: '/api/logs/activity',
    tag,
    summary: 'List the activity log',
    description:
      "The signed-in user's own entries, newest first: sign-up, sign-in (success, failure, new address, lock), logout, plan selection, password reset and allowlist changes, each with time, address and user agent.",
    auth: 'session',
    scopes: [],
    query: ActivityQuery,
    success: { status: 200, description: 'A page of entries', schema: ActivityList },
    errors: ['validation_error'],
  },
  {
    id: 'logs.requests.list',
    method: 'GET',
    path: '/api/logs/requests',
    tag,
    summary: 'List the request log',
    description: `${REQUEST_LOG} The signed-in user sees the requests they made and the requests to the clusters they are a member of. Filters combine: \`status\` (\`404\` or \`4xx\`), \`method\`, \`path\` (a prefix), \`keyId\`, \`clusterId\`, \`from\` and \`to\`.`,
    auth: 'session',
    scopes: [],
    query: RequestLogQuery,
    success: { status: 200, description: 'A page of requests', schema: RequestLogList },
    errors: ['validation_error'],
  },
  {
    id: 'logs.requests.get',
    method: 'GET',
    path: '/api/logs/requests/{requestId}',
    tag,
    summary: 'Get one logged request',
    description:
      'The latest logged request with this X-Request-Id that the signed-in user may see; 404 `not_found` when there is none (yet, or any more).',
    auth: 'session',
    scopes: [],
    params: RequestLogParams,
    success: { status: 200, description: 'The request', schema: RequestLogEntry },
    errors: ['not_found'],
  },
] as const satisfies readonly RouteDefinition[];

/** The request log of the key's cluster, under /api/v1/logs. */
export const logsKeyRoutes = [
  {
    id: 'logs.requests.listByKey',
    method: 'GET',
    path: '/api/v1/logs/requests',
    tag,
    summary: "List the request log of the key's cluster",
    description: `${REQUEST_LOG} The requests to the key's cluster (or, with a session token, to the cluster it acts on), with the same filters as \`GET /api/logs/requests\`.`,
    auth: 'data',
    scopes: ['logs:read'],
    query: RequestLogQuery,
    success: { status: 200, description: 'A page of requests', schema: RequestLogList },
    errors: ['validation_error'],
  },
] as const satisfies readonly RouteDefinition[];
