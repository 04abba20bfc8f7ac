import type {
  ApiKeyCreate,
  ApiKeyList,
  ApiKeyWithSecret,
  Robot,
  RobotCreate,
  RobotList,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** The keys of a robot: `/api/robots/{id}/keys`. */
export class RobotKeys extends APIResource {
  /** Creates a key of the robot; its scopes must be among the robot's (PermissionDeniedError `forbidden`). */
  create(robotId: string, body: ApiKeyCreate, options?: RequestOptions): APIPromise<ApiKeyWithSecret> {
    return this._client.post(`${path(robotId)}/keys`, { ...options, body });
  }

  /** The robot's keys, newest first, without secrets. */
  list(robotId: string, options?: RequestOptions): APIPromise<ApiKeyList> {
    return this._client.get(`${path(robotId)}/keys`, options);
  }
}

/**
 * Robots (service accounts) of the signed-in user, under `/api/robots`: they own keys of their own, so automation
 * keeps working when people change. Deleting a robot ends its keys at once.
 * @example const robot = await client.robots.create({ name: 'deployer', scopes: ['data:read'] });
 */
export class Robots extends APIResource {
  /** `/api/robots/{id}/keys`. */
  readonly keys: RobotKeys = new RobotKeys(this._client);

  /** Creates a robot with at most the user's scopes (all of them by default). */
  create(body: RobotCreate, options?: RequestOptions): APIPromise<Robot> {
    return this._client.post('/api/robots', { ...options, body });
  }

  /** The user's robots, newest first. */
  list(options?: RequestOptions): APIPromise<RobotList> {
    return this._client.get('/api/robots', options);
  }

  /** One robot; NotFoundError for a robot that is not the user's. */
  get(id: string, options?: RequestOptions): APIPromise<Robot> {
    return this._client.get(path(id), options);
  }

  /** Deletes the robot and its keys. */
  delete(id: string, options?: RequestOptions): APIPromise<{ _id: string; deleted: true }> {
    return this._client.delete(path(id), options);
  }
}

function path(id: string): string {
  return `/api/robots/${segment(id, 'robot id')}`;
}
