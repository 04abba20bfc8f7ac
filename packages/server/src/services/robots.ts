import {
  type ApiKeyCreate,
  isJsonObject,
  type Robot,
  RobotCreate,
  robotNotFound,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { ApiError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { ulid } from '../ids.js';
import type { KeyOwner } from '../storage/keys.js';
import type { RobotRow } from '../storage/robots.js';
import type { Storage } from '../storage/types.js';
import { assertGrantable, scopesOfUser } from './key-scopes.js';
import type { KeyService, KeyWithSecret } from './keys.js';

/** A robot as the robot routes answer it. */
export type RobotRecord = z.output<typeof Robot>;

/**
 * Robots: service identities owned by a user, so that automation does not hang on a person's own keys. A robot
 * holds at most its owner's scopes, its keys at most the robot's. Deleting a robot ends its keys.
 */
export class RobotService {
  constructor(
    private readonly storage: Storage,
    private readonly keys: KeyService,
  ) {}

  /** Creates a robot from an unchecked body `{ name, scopes? }`. */
  async create(userId: string, body: unknown): Promise<RobotRecord> {
    if (!isJsonObject(body)) throw new ApiError('invalid_body', 'Body must be a JSON object: { "name" }');
    return this.createChecked(userId, validate(RobotCreate, body, 'body'));
  }

  /** Creates a robot from a checked body; its scopes default to all of the owner's. */
  async createChecked(userId: string, input: z.output<typeof RobotCreate>): Promise<RobotRecord> {
    const held = scopesOfUser(userId);
    const scopes = input.scopes ?? [...held];
    assertGrantable(scopes, held);
    const robot = {
      id: `rbt_${ulid()}`,
      ownerId: userId,
      name: input.name,
      scopes,
      createdAt: new Date().toISOString(),
    };
    await this.storage.robots.create(robot);
    return toRecord(robot);
  }

  /** The user's robots, newest first. */
  async list(userId: string): Promise<{ data: RobotRecord[] }> {
    return { data: (await this.storage.robots.list(userId)).map(toRecord) };
  }

  /** One robot of the user; 404 `not_found` for any other. */
  async get(userId: string, robotId: string): Promise<RobotRecord> {
    return toRecord(await this.find(userId, robotId));
  }

  /** Deletes the robot and, in the same transaction, its keys: they stop working at once. */
  async delete(userId: string, robotId: string): Promise<{ _id: string; deleted: true }> {
    if (!(await this.storage.robots.delete(userId, robotId))) throw notFound(robotId);
    return { _id: robotId, deleted: true };
  }

  /**
   * The owner to pass to every KeyService operation on the robot's keys (list, get, pause, resume, rotate,
   * delete, usage); 404 `not_found` when the user has no such robot.
   */
  async keyOwner(userId: string, robotId: string): Promise<KeyOwner> {
    await this.find(userId, robotId);
    return { userId, robotId };
  }

  /** Creates a key of the robot from an unchecked body; its scopes must be among the robot's. */
  async createKey(userId: string, robotId: string, body: unknown): Promise<KeyWithSecret> {
    const robot = await this.find(userId, robotId);
    return this.keys.create({ userId, robotId }, body, robot.scopes);
  }

  /** Creates a key of the robot from a checked body; its scopes must be among the robot's. */
  async createKeyChecked(
    userId: string,
    robotId: string,
    input: z.output<typeof ApiKeyCreate>,
  ): Promise<KeyWithSecret> {
    const robot = await this.find(userId, robotId);
    return this.keys.createChecked({ userId, robotId }, input, robot.scopes);
  }

  private async find(userId: string, robotId: string): Promise<RobotRow> {
    const robot = await this.storage.robots.get(userId, robotId);
    if (!robot) throw notFound(robotId);
    return robot;
  }
}

function notFound(robotId: string): ApiError {
  const { code, message } = robotNotFound(robotId);
  return new ApiError(code, message);
}

function toRecord(robot: RobotRow): RobotRecord {
  return { _id: robot.id, name: robot.name, scopes: robot.scopes, createdAt: robot.createdAt };
}
