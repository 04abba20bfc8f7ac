import type { ApiKeyUsageQuery, RouteDefinition } from '@dataplatform/contract';
import { keysRoutes, robotsRoutes } from '@dataplatform/contract';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { z } from 'zod';
import type { KeyService } from '../services/keys.js';
import type { RobotService } from '../services/robots.js';
import type { KeyOwner } from '../storage/keys.js';
import {
  type AccountCall,
  type AccountHandler,
  type ExtraHooks,
  registerAccountRoutes,
} from './account-routes.js';

type KeyRouteId = (typeof keysRoutes)[number]['id'];
type RobotRouteId = (typeof robotsRoutes)[number]['id'];
type IdCall = AccountCall<unknown, z.output<typeof ApiKeyUsageQuery>>;

/** The services behind the key and robot routes. */
export interface KeyRoutesServices {
  keys: KeyService;
  robots: RobotService;
}

/**
 * Registers `/api/keys/*` (the signed-in user's own keys) and `/api/robots/*` (robots and their keys). Session
 * token only; every one of them is also subject to the account's IP allowlist, as keys are what reach the data.
 */
export function registerKeys(
  app: FastifyInstance,
  { keys, robots }: KeyRoutesServices,
  requireSession: onRequestHookHandler,
  ipAllowlist: onRequestHookHandler,
): void {
  const keyHandlers: Record<KeyRouteId, AccountHandler> = {
    'keys.create': ({ request }) => keys.create(ownerOf(request), request.body),
    'keys.list': ({ request }) => keys.list(ownerOf(request)),
    'keys.get': ({ request }) => keys.get(ownerOf(request), idOf(request)),
    'keys.pause': ({ request }) => keys.pause(ownerOf(request), idOf(request)),
    'keys.resume': ({ request }) => keys.resume(ownerOf(request), idOf(request)),
    'keys.rotate': ({ request }) => keys.rotate(ownerOf(request), idOf(request)),
    'keys.delete': ({ request }) => keys.delete(ownerOf(request), idOf(request)),
    'keys.usage': ({ request, query }: IdCall) => keys.usage(ownerOf(request), idOf(request), query),
  };
  const robotHandlers: Record<RobotRouteId, AccountHandler> = {
    'robots.create': ({ request }) => robots.create(userOf(request), request.body),
    'robots.list': ({ request }) => robots.list(userOf(request)),
    'robots.get': ({ request }) => robots.get(userOf(request), idOf(request)),
    'robots.delete': ({ request }) => robots.delete(userOf(request), idOf(request)),
    'robots.keys.create': ({ request }) => robots.createKey(userOf(request), idOf(request), request.body),
    'robots.keys.list': async ({ request }) =>
      keys.list(await robots.keyOwner(userOf(request), idOf(request))),
  };
  const guarded = (table: readonly RouteDefinition[]): ExtraHooks =>
    Object.fromEntries(table.map((route) => [route.id, [ipAllowlist]]));
  const keyTable = keysRoutes as readonly RouteDefinition[];
  const robotTable = robotsRoutes as readonly RouteDefinition[];
  registerAccountRoutes(app, keyTable, keyHandlers, requireSession, guarded(keyTable));
  registerAccountRoutes(app, robotTable, robotHandlers, requireSession, guarded(robotTable));
}

function userOf(request: FastifyRequest): string {
  return request.session!.userId;
}

/** The signed-in user's own keys: a robot's keys are reached through the robot only. */
function ownerOf(request: FastifyRequest): KeyOwner {
  return { userId: userOf(request), robotId: null };
}

function idOf(request: FastifyRequest): string {
  return (request.params as { id: string }).id;
}
