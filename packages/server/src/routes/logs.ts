import type { ActivityQuery, RouteDefinition } from '@dataplatform/contract';
import { logsRoutes } from '@dataplatform/contract';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { z } from 'zod';
import type { ActivityLog } from '../services/activity.js';
import { type AccountCall, type AccountHandler, registerAccountRoutes } from './account-routes.js';

type RouteId = (typeof logsRoutes)[number]['id'];

/** Registers `/api/logs/*`: the signed-in user's own activity log. */
export function registerLogs(
  app: FastifyInstance,
  activity: ActivityLog,
  requireSession: onRequestHookHandler,
): void {
  const handlers: Record<RouteId, AccountHandler> = {
    'logs.activity': ({ request, query }: AccountCall<unknown, z.output<typeof ActivityQuery>>) =>
      activity.list(request.session!.userId, query.limit, query.skip),
  };
  registerAccountRoutes(app, logsRoutes as readonly RouteDefinition[], handlers, requireSession);
}
