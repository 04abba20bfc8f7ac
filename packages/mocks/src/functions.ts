import {
  type ClusterAction,
  checkClusterAccess,
  FUNCTION_LIMITS,
  type FunctionRecord,
  type Invocation,
  type PlanOfAccount,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import type { ClusterModel } from './clusters.js';
import { createIdGenerator } from './ids.js';

interface MockFunction extends FunctionRecord {
  code: string;
  env: Record<string, string>;
  invocations: Invocation[];
}

/** What a function route knows of its caller. */
export interface FunctionCaller {
  userId: string;
  account: PlanOfAccount;
  clusters: ClusterModel;
}

/** The log line of a mock run: the mocks store functions but never run their code. */
export const MOCK_RUN_LOG = 'The mock API does not run function code; result is null';

/**
 * Functions as the mocks keep them: deploy, list, read and delete with the server's role rules. A run answers
 * `{ result: null }` and is recorded; the mocks have no sandbox, and code is not checked at deploy.
 */
export class FunctionModel {
  readonly #functions = new Map<string, MockFunction>();
  readonly #id = createIdGenerator();

  clear(): void {
    this.#functions.clear();
  }

  create(
    caller: FunctionCaller,
    body: {
      name: string;
      code: string;
      timeoutMs?: number;
      memoryMb?: number;
      env?: Record<string, string>;
      clusterId?: string;
    },
  ) {
    const membership = caller.clusters.membership(caller.userId, caller.account, body.clusterId ?? null);
    if (!membership)
      throw new ApiError(
        'validation_error',
        `Invalid body field "clusterId": no cluster ${body.clusterId} of yours`,
        {
          in: 'body',
          field: 'clusterId',
        },
      );
    reject(checkClusterAccess(membership.role, 'functions'));
    const taken = [...this.#functions.values()].some(
      (f) => f.clusterId === membership.clusterId && f.name === body.name,
    );
    if (taken) throw new ApiError('conflict', `The cluster already has a function named "${body.name}"`);
    const now = new Date().toISOString();
    const fn: MockFunction = {
      _id: `fn_${this.#id()}`,
      name: body.name,
      clusterId: membership.clusterId,
      version: 1,
      timeoutMs: body.timeoutMs ?? FUNCTION_LIMITS.defaultTimeoutMs,
      memoryMb: body.memoryMb ?? FUNCTION_LIMITS.defaultMemoryMb,
      createdAt: now,
      updatedAt: now,
      code: body.code,
      env: body.env ?? {},
      invocations: [],
    };
    this.#functions.set(fn._id, fn);
    return this.#public(fn);
  }

  list(caller: FunctionCaller, query: { clusterId?: string; limit: number; skip: number }) {
    const visible = [...this.#functions.values()].filter((f) => {
      if (query.clusterId !== undefined && f.clusterId !== query.clusterId) return false;
      return caller.clusters.membership(caller.userId, caller.account, f.clusterId) !== null;
    });
    return {
      data: visible.slice(query.skip, query.skip + query.limit).map((f) => this.#public(f)),
      total: visible.length,
      limit: query.limit,
      skip: query.skip,
    };
  }

  get(caller: FunctionCaller, id: string) {
    const fn = this.#require(caller, id, 'read');
    return { ...this.#public(fn), code: fn.code, env: fn.env };
  }

  deploy(
    caller: FunctionCaller,
    id: string,
    body: { code: string; timeoutMs?: number; memoryMb?: number; env?: Record<string, string> },
  ) {
    const fn = this.#require(caller, id, 'functions');
    fn.code = body.code;
    fn.timeoutMs = body.timeoutMs ?? fn.timeoutMs;
    fn.memoryMb = body.memoryMb ?? fn.memoryMb;
    fn.env = body.env ?? fn.env;
    fn.version += 1;
    fn.updatedAt = new Date().toISOString();
    return this.#public(fn);
  }

  delete(caller: FunctionCaller, id: string) {
    this.#require(caller, id, 'functions');
    this.#functions.delete(id);
    return { _id: id, deleted: true as const };
  }

  invoke(caller: FunctionCaller, id: string) {
    const fn = this.#require(caller, id, 'functions');
    const status = caller.clusters.membership(caller.userId, caller.account, fn.clusterId)?.status;
    if (status !== 'running') throw new ApiError('cluster_unavailable');
    return this.#run(fn);
  }

  /** The data-plane run by name, in the cluster a key acts on. */
  invokeByName(clusterId: string, name: string) {
    const fn = [...this.#functions.values()].find((f) => f.clusterId === clusterId && f.name === name);
    if (!fn) throw new ApiError('not_found', `Function "${name}" not found`, { name });
    return this.#run(fn);
  }

  invocations(caller: FunctionCaller, id: string, page: { limit: number; skip: number }) {
    const fn = this.#require(caller, id, 'read');
    return {
      data: fn.invocations.slice(page.skip, page.skip + page.limit),
      total: fn.invocations.length,
      limit: page.limit,
      skip: page.skip,
    };
  }

  /** The function when the caller may do `action` on its cluster; a non-member sees 404. */
  find(caller: FunctionCaller, id: string, action: ClusterAction) {
    return this.#public(this.#require(caller, id, action));
  }

  #run(fn: MockFunction) {
    const logs = [MOCK_RUN_LOG];
    fn.invocations.unshift({
      _id: `inv_${this.#id()}`,
      functionId: fn._id,
      version: fn.version,
      status: 'ok',
      trigger: 'http',
      durationMs: 0,
      startedAt: new Date().toISOString(),
      logs,
      error: null,
    });
    return { result: null, logs, durationMs: 0 };
  }

  #require(caller: FunctionCaller, id: string, action: ClusterAction): MockFunction {
    const fn = this.#functions.get(id);
    const membership = fn && caller.clusters.membership(caller.userId, caller.account, fn.clusterId);
    if (!fn || !membership) throw new ApiError('not_found', `Function "${id}" not found`, { id });
    reject(checkClusterAccess(membership.role, action));
    return fn;
  }

  #public(fn: MockFunction): FunctionRecord {
    const { code: _code, env: _env, invocations: _invocations, ...record } = fn;
    return record;
  }
}

function reject(violation: ReturnType<typeof checkClusterAccess>): void {
  if (violation) throw ApiError.fromViolation(violation);
}
