import {
  ApiKeyCreate,
  ApiKeyList,
  ApiKeyWithSecret,
  Robot,
  RobotCreate,
  RobotList,
  RobotParams,
} from '../schemas/api-key.js';
import { Deleted } from '../schemas/common.js';
import type { RouteDefinition } from './types.js';

const tag = 'robots';

/**
 * Robots (service accounts) of the signed-in user under /api/robots. Session token only, and subject to the
 * account's IP allowlist like the key routes, since a robot's keys are API keys. A robot's keys are created and
 * listed here; once created they are paused, resumed, rotated and deleted like any key of their owner's robot,
 * through these routes only.
 */
export const robotsRoutes = [
  {
    id: 'robots.create',
    method: 'POST',
    path: '/api/robots',
    tag,
    summary: 'Create a robot',
    description:
      "A named service identity with at most the caller's scopes (all of them by default); asking for more is 403 `forbidden`.",
    auth: 'session',
    ipGuarded: true,
    scopes: [],
    body: RobotCreate,
    success: { status: 201, description: 'The robot', schema: Robot },
    errors: ['validation_error', 'invalid_json', 'invalid_body', 'forbidden', 'ip_blocked'],
  },
  {
    id: 'robots.list',
    method: 'GET',
    path: '/api/robots',
    tag,
    summary: 'List your robots',
    description: "The caller's robots, newest first.",
    auth: 'session',
    ipGuarded: true,
    scopes: [],
    success: { status: 200, description: 'The robots', schema: RobotList },
    errors: ['ip_blocked'],
  },
  {
    id: 'robots.get',
    method: 'GET',
    path: '/api/robots/{id}',
    tag,
    summary: 'Get a robot',
    description: "Another user's robot is 404 `not_found`.",
    auth: 'session',
    ipGuarded: true,
    scopes: [],
    params: RobotParams,
    success: { status: 200, description: 'The robot', schema: Robot },
    errors: ['validation_error', 'not_found', 'ip_blocked'],
  },
  {
    id: 'robots.delete',
    method: 'DELETE',
    path: '/api/robots/{id}',
    tag,
    summary: 'Delete a robot',
    description:
      "Deletes the robot and its keys in one transaction: they stop working at once. Another user's robot is 404 `not_found`.",
    auth: 'session',
    ipGuarded: true,
    scopes: [],
    params: RobotParams,
    success: { status: 200, description: 'The robot is gone', schema: Deleted },
    errors: ['validation_error', 'not_found', 'ip_blocked'],
  },
  {
    id: 'robots.keys.create',
    method: 'POST',
    path: '/api/robots/{id}/keys',
    tag,
    summary: "Create a robot's API key",
    description:
      "As `POST /api/keys`, but the key belongs to the robot and its scopes must be among the robot's (403 `forbidden`).",
    auth: 'session',
    ipGuarded: true,
    scopes: [],
    params: RobotParams,
    body: ApiKeyCreate,
    success: { status: 201, description: 'The key and its secret', schema: ApiKeyWithSecret },
    errors: [
      'validation_error',
      'invalid_json',
      'invalid_body',
      'forbidden',
      'not_found',
      'conflict',
      'ip_blocked',
    ],
  },
  {
    id: 'robots.keys.list',
    method: 'GET',
    path: '/api/robots/{id}/keys',
    tag,
    summary: "List a robot's API keys",
    description: "The robot's keys, newest first; never their secrets.",
    auth: 'session',
    ipGuarded: true,
    scopes: [],
    params: RobotParams,
    success: { status: 200, description: 'The keys', schema: ApiKeyList },
    errors: ['validation_error', 'not_found', 'ip_blocked'],
  },
] as const satisfies readonly RouteDefinition[];
