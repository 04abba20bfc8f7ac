import { ActivityList, ActivityQuery } from '../schemas/activity.js';
import type { RouteDefinition } from './types.js';

/** Logs of an account under /api/logs. */
export const logsRoutes = [
  {
    id: 'logs.activity',
    method: 'GET',
    path: '/api/logs/activity',
    tag: 'logs',
    summary: 'List the activity log',
    description:
      "The signed-in user's own entries, newest first: sign-up, sign-in (success, failure, new address, lock), logout, plan selection, password reset and allowlist changes, each with time, address and user agent.",
    auth: 'session',
    scopes: [],
    query: ActivityQuery,
    success: { status: 200, description: 'A page of entries', schema: ActivityList },
    errors: ['validation_error'],
  },
] as const satisfies readonly RouteDefinition[];
