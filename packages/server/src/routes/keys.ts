import type { keysRoutes, robotsRoutes } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import type { RouteHandlers } from '../http/route-call.js';
import type { KeyService } from '../services/keys.js';
import type { RobotService } from '../services/robots.js';
import type { KeyOwner } from '../storage/keys.js';

/** The services behind the key and robot routes. */
export interface KeyRoutesServices {
  keys: KeyService;
  robots: RobotService;
}

/**
 * `/api/keys/*` (the signed-in user's own keys) and `/api/robots/*` (robots and their keys). Session token only;
 * every one of them is also behind the account's IP allowlist (`ipGuarded` in the contract), as keys are what reach the data.
 */
export function keyHandlers({
  keys,
  robots,
}: KeyRoutesServices): RouteHandlers<typeof keysRoutes | typeof robotsRoutes> {
  return {
    'keys.create': ({ request, body }) => keys.createChecked(ownerOf(request), body),
    'keys.list': ({ request }) => keys.list(ownerOf(request)),
    'keys.get': ({ request, params }) => keys.get(ownerOf(request), params.id),
    'keys.pause': ({ request, params }) => keys.pause(ownerOf(request), params.id),
    'keys.resume': ({ request, params }) => keys.resume(ownerOf(request), params.id),
    'keys.rotate': ({ request, params }) => keys.rotate(ownerOf(request), params.id),
    'keys.delete': ({ request, params }) => keys.delete(ownerOf(request), params.id),
    'keys.usage': ({ request, params, query }) => keys.usagePage(ownerOf(request), params.id, query),
    'robots.create': ({ request, body }) => robots.createChecked(userOf(request), body),
    'robots.list': ({ request }) => robots.list(userOf(request)),
    'robots.get': ({ request, params }) => robots.get(userOf(request), params.id),
    'robots.delete': ({ request, params }) => robots.delete(userOf(request), params.id),
    'robots.keys.create': ({ request, params, body }) =>
      robots.createKeyChecked(userOf(request), params.id, body),
    'robots.keys.list': async ({ request, params }) =>
      keys.list(await robots.keyOwner(userOf(request), params.id)),
  };
}

function userOf(request: FastifyRequest): string {
  return request.session!.userId;
}

/** The signed-in user's own keys: a robot's keys are reached through the robot only. */
function ownerOf(request: FastifyRequest): KeyOwner {
  return { userId: userOf(request), robotId: null };
}
