import {
  ApiKeyCreate,
  checkGrantable,
  checkKeyChange,
  checkKeyExpiry,
  keyExpiresAt,
  keyHasExpired,
  keyNotFound,
  keyStatusAt,
  robotNotFound,
  SCOPES,
  usageOutcomeOf,
  type Violation,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import { randomToken } from './ids.js';
import type { MockKey } from './keys.js';

/** Who a managed key belongs to: a user, or one of their robots. */
export interface KeyOwner {
  userId: string;
  robotId: string | null;
}

interface UsageEntry {
  method: string;
  path: string;
  outcome: 'success' | 'denied';
  status: number;
  timestamp: string;
  ip: string;
  userAgent: string | null;
}

/** A key made through the key routes: the ring's key plus its record, owner and usage history. */
export interface ManagedKey extends MockKey {
  id: string;
  owner: KeyOwner;
  name: string;
  clusterId: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastRotatedAt: string | null;
  usage: UsageEntry[];
}

interface MockRobot {
  _id: string;
  ownerId: string;
  name: string;
  scopes: string[];
  createdAt: string;
}

/** The cluster the mocks give every user: they keep one document store, so every key acts on it. */
export function clusterOf(userId: string): string {
  return `cls_mock_${userId}`;
}

/**
 * The key routes' model, as the server's KeyService and RobotService: keys of a user or of their robots, each
 * with a secret that authenticates in the ring at once; another owner's key or robot is 404 `not_found`.
 */
export class ManagedKeys {
  readonly #byId = new Map<string, ManagedKey>();
  readonly #robots = new Map<string, MockRobot>();

  constructor(
    /** Puts a key's secret in the ring, or takes it out (`undefined` secret). */
    private readonly ring: { set(secret: string, key: MockKey): void; remove(key: MockKey): void },
  ) {}

  clear(): void {
    for (const key of this.#byId.values()) this.ring.remove(key);
    this.#byId.clear();
    this.#robots.clear();
  }

  create(owner: KeyOwner, body: unknown, grantable: readonly string[] = SCOPES) {
    const input = ApiKeyCreate.parse(body);
    refuse(checkGrantable(input.scopes, grantable));
    const now = Date.now();
    refuse(checkKeyExpiry(input, now));
    const clusterId = clusterOf(owner.userId);
    if (input.clusterId !== undefined && input.clusterId !== clusterId)
      throw new ApiError(
        'validation_error',
        `Invalid body field "clusterId": no cluster ${input.clusterId} of yours`,
        {
          in: 'body',
          field: 'clusterId',
        },
      );
    const key: ManagedKey = {
      id: randomToken(16),
      owner,
      name: input.name,
      scopes: new Set(input.scopes),
      status: 'active',
      tier: 'enterprise',
      clusterId,
      createdAt: new Date(now).toISOString(),
      expiresAt: keyExpiresAt(input, now),
      lastUsedAt: null,
      lastRotatedAt: null,
      usage: [],
    };
    this.#byId.set(key.id, key);
    return { key: recordOf(key), secret: this.#issue(key) };
  }

  list(owner: KeyOwner) {
    const mine = [...this.#byId.values()].filter((k) => sameOwner(k.owner, owner));
    return { data: mine.reverse().map(recordOf) };
  }

  get(owner: KeyOwner, id: string) {
    return recordOf(this.#find(owner, id));
  }

  setStatus(owner: KeyOwner, id: string, status: 'active' | 'paused') {
    const key = this.#changeable(owner, id, status === 'paused' ? 'paused' : 'resumed');
    key.status = status;
    return recordOf(key);
  }

  rotate(owner: KeyOwner, id: string) {
    const key = this.#changeable(owner, id, 'rotated');
    this.ring.remove(key);
    key.lastRotatedAt = new Date().toISOString();
    return { key: recordOf(key), secret: this.#issue(key) };
  }

  delete(owner: KeyOwner, id: string) {
    const key = this.#find(owner, id);
    this.ring.remove(key);
    this.#byId.delete(id);
    return { _id: id, deleted: true as const };
  }

  usage(owner: KeyOwner, id: string, query: { outcome?: string; limit: number; skip: number }) {
    const entries = this.#find(owner, id).usage.filter((e) => !query.outcome || e.outcome === query.outcome);
    const newestFirst = [...entries].reverse();
    return { data: newestFirst.slice(query.skip, query.skip + query.limit), total: entries.length };
  }

  /** Records a request made with a managed key, as the server's usage history does. */
  record(key: MockKey, request: Request, status: number, ip: string): void {
    if (!('usage' in key)) return;
    const managed = key as ManagedKey;
    const timestamp = new Date().toISOString();
    managed.usage.push({
      method: request.method,
      path: new URL(request.url).pathname,
      outcome: usageOutcomeOf(status),
      status,
      timestamp,
      ip,
      userAgent: request.headers.get('user-agent'),
    });
    managed.lastUsedAt = timestamp;
  }

  createRobot(userId: string, body: { name: string; scopes?: string[] }) {
    // A user holds every scope, so any the contract knows (the route's schema checked them) may be given.
    const scopes = body.scopes ?? [...SCOPES];
    const robot: MockRobot = {
      _id: `rbt_${randomToken(20)}`,
      ownerId: userId,
      name: body.name,
      scopes,
      createdAt: new Date().toISOString(),
    };
    this.#robots.set(robot._id, robot);
    return robotRecord(robot);
  }

  listRobots(userId: string) {
    return {
      data: [...this.#robots.values()]
        .filter((r) => r.ownerId === userId)
        .reverse()
        .map(robotRecord),
    };
  }

  getRobot(userId: string, robotId: string) {
    return robotRecord(this.#robot(userId, robotId));
  }

  deleteRobot(userId: string, robotId: string) {
    this.#robot(userId, robotId);
    for (const key of [...this.#byId.values()]) {
      if (key.owner.robotId === robotId) this.delete(key.owner, key.id);
    }
    this.#robots.delete(robotId);
    return { _id: robotId, deleted: true as const };
  }

  createRobotKey(userId: string, robotId: string, body: unknown) {
    const robot = this.#robot(userId, robotId);
    return this.create({ userId, robotId }, body, robot.scopes);
  }

  listRobotKeys(userId: string, robotId: string) {
    this.#robot(userId, robotId);
    return this.list({ userId, robotId });
  }

  #issue(key: ManagedKey): string {
    const secret = `svc_${key.id}${randomToken(32)}mock00`;
    this.ring.set(secret, key);
    return secret;
  }

  #find(owner: KeyOwner, id: string): ManagedKey {
    const key = this.#byId.get(id);
    if (!key || !sameOwner(key.owner, owner)) throw ApiError.fromViolation(keyNotFound(id));
    return key;
  }

  #changeable(owner: KeyOwner, id: string, change: 'paused' | 'resumed' | 'rotated'): ManagedKey {
    const key = this.#find(owner, id);
    refuse(checkKeyChange(key, change, Date.now()));
    return key;
  }

  #robot(userId: string, robotId: string): MockRobot {
    const robot = this.#robots.get(robotId);
    if (!robot || robot.ownerId !== userId) throw ApiError.fromViolation(robotNotFound(robotId));
    return robot;
  }
}

function refuse(violation: Violation | null): void {
  if (violation) throw ApiError.fromViolation(violation);
}

function sameOwner(a: KeyOwner, b: KeyOwner): boolean {
  return a.userId === b.userId && a.robotId === b.robotId;
}

/** Whether a managed key's expiry instant has passed; the ring treats it as `expired`. */
export function isExpired(key: MockKey): boolean {
  return keyHasExpired((key as Partial<ManagedKey>).expiresAt ?? null, Date.now());
}

function recordOf(key: ManagedKey) {
  return {
    _id: key.id,
    name: key.name,
    prefix: `svc_${key.id}`,
    scopes: [...key.scopes],
    status: keyStatusAt(key.status, key.expiresAt, Date.now()),
    clusterId: key.clusterId,
    createdAt: key.createdAt,
    expiresAt: key.expiresAt,
    lastUsedAt: key.lastUsedAt,
    lastRotatedAt: key.lastRotatedAt,
  };
}

function robotRecord(robot: MockRobot) {
  return { _id: robot._id, name: robot.name, scopes: robot.scopes, createdAt: robot.createdAt };
}
