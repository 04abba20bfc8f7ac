import type { sqlRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import type { SqlService } from '../services/sql.js';

/** The SQL helper (`POST /api/v1/data/sql`); Fastify prefers its fixed path to `/api/v1/data/:collection`. */
export function sqlHandlers(sql: SqlService): RouteHandlers<typeof sqlRoutes> {
  return {
    'data.sql': ({ principal, body }) => sql.run(principal.clusterId, body),
  };
}
