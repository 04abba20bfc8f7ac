import { isJsonObject, type RouteDefinition, SqlRequest, sqlRoutes } from '@dataplatform/contract';
import { parseSql } from '@dataplatform/contract/sql';
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth/authenticate.js';
import { ApiError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { Storage } from '../storage/types.js';

/** Runs one SQL statement: validate the body, translate the statement, let the engine run the query. */
async function runSql(storage: Storage, clusterId: string, body: unknown): Promise<string> {
  if (!isJsonObject(body))
    throw new ApiError('invalid_body', 'Body must be a JSON object: { "sql": "SELECT …" }');
  const request = validate(SqlRequest, body, 'body');
  const query = parseSql(request.sql, request.params ?? []);
  if ('code' in query) throw new ApiError(query.code, query.message, query.details);
  const result = await storage.queries.run({ clusterId, collection: query.collection }, query);
  const data = 'count' in result ? `{"count":${result.count}}` : result.rows.join(',');
  return `{"data":[${data}],"query":${JSON.stringify(query)}}`;
}

/** Registers the SQL helper (`POST /api/v1/data/sql`); Fastify prefers its fixed path to `/api/v1/data/:collection`. */
export function registerSql(app: FastifyInstance, auth: Authenticator, storage: Storage): void {
  for (const route of sqlRoutes as readonly RouteDefinition[]) {
    app.route({
      method: route.method,
      url: route.path,
      onRequest: async (request, reply) => {
        request.principal = await auth.authenticate(request, reply, route.scopes);
      },
      handler: async (request, reply) => {
        const body = await runSql(storage, request.principal!.clusterId, request.body);
        return reply.code(route.success.status).type('application/json; charset=utf-8').send(body);
      },
    });
  }
}
