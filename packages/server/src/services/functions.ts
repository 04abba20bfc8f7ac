import {
  type ClusterAction,
  checkClusterAccess,
  FUNCTION_LIMITS,
  type FunctionCreate,
  type FunctionDeploy,
  functionFailure,
  type InvocationTrigger,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { type DataServices, dataBridge } from '../functions/data-bridge.js';
import { type FailingNotices, noticeFailing } from '../functions/failing.js';
import { InvocationLog } from '../functions/invocation-log.js';
import { type CheckedModule, ModuleError, type RunOutcome, type Sandbox } from '../functions/sandbox.js';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import { ulid } from '../ids.js';
import type { FunctionRow, InvocationRow } from '../storage/functions.js';
import type { Storage } from '../storage/types.js';
import { triggerSubscriptionId } from '../triggers/subscriptions.js';

type Create = z.output<typeof FunctionCreate>;
type Deploy = z.output<typeof FunctionDeploy>;

/** A function as the API shows it without its code. */
export function publicFunction(row: FunctionRow) {
  const { id, name, clusterId, version, timeoutMs, memoryMb, createdAt, updatedAt } = row;
  return { _id: id, name, clusterId, version, timeoutMs, memoryMb, createdAt, updatedAt };
}

function publicInvocation(row: InvocationRow) {
  const { id, ...rest } = row;
  return { _id: id, ...rest };
}

/**
 * Functions of the user's clusters: deploy (checked in the sandbox first, so a module that cannot run is never
 * stored), list, read, delete, run and their run history. Roles come from the contract's `checkClusterAccess`:
 * reading is any member's, everything else needs the `functions` action (owners, admins, developers).
 */
export class FunctionService {
  private readonly history: InvocationLog;

  constructor(
    private readonly storage: Storage,
    private readonly sandbox: Sandbox,
    private readonly data: DataServices,
    /** Where a failing function is told: its owner's activity log and notifications. */
    private readonly notices: FailingNotices,
    /** Told of every run, whatever started it or how it ended: billing's usage meter. */
    private readonly onInvocation?: (clusterId: string) => void,
    /** Where an invocation that could not be recorded is reported. */
    onRecordError: (error: unknown) => void = () => {},
  ) {
    this.history = new InvocationLog(storage.functions, onRecordError);
  }

  /** Writes the invocations still waiting for their batch; the server calls it on close, before the storage closes. */
  flushInvocations(): Promise<void> {
    return this.history.flush();
  }

  async create(userId: string, input: Create) {
    const membership = await this.storage.clusters.membership(userId, input.clusterId ?? null);
    if (membership === null) {
      throw input.clusterId === undefined
        ? new ApiError('conflict', 'The account has no cluster to create a function in')
        : new ApiError(
            'validation_error',
            `Invalid body field "clusterId": no cluster ${input.clusterId} of yours`,
            {
              in: 'body',
              field: 'clusterId',
            },
          );
    }
    rejectViolation(checkClusterAccess(membership.role, 'functions'));
    const limits = {
      timeoutMs: input.timeoutMs ?? FUNCTION_LIMITS.defaultTimeoutMs,
      memoryMb: input.memoryMb ?? FUNCTION_LIMITS.defaultMemoryMb,
    };
    const env = input.env ?? {};
    const checked = await this.checkModule({ code: input.code, env, ...limits });
    const now = new Date().toISOString();
    const row = {
      id: `fn_${ulid()}`,
      clusterId: membership.clusterId,
      name: input.name,
      code: input.code,
      env,
      ...limits,
      createdAt: now,
      updatedAt: now,
    };
    try {
      if ((await this.storage.functions.create(row)) === 'name_taken')
        throw new ApiError('conflict', `The cluster already has a function named "${input.name}"`, {
          name: input.name,
        });
      checked.keep(`${row.id}@1`);
    } finally {
      checked.dispose();
    }
    return publicFunction({ ...row, version: 1 });
  }

  async list(userId: string, query: { clusterId?: string; limit: number; skip: number }) {
    const { rows, total } = await this.storage.functions.list({
      userId,
      clusterId: query.clusterId ?? null,
      limit: query.limit,
      skip: query.skip,
    });
    return { data: rows.map(publicFunction), total, limit: query.limit, skip: query.skip };
  }

  async get(userId: string, id: string) {
    const row = await this.found(userId, id, 'read');
    return { ...publicFunction(row), code: row.code, env: row.env };
  }

  async deploy(userId: string, id: string, input: Deploy) {
    const row = await this.found(userId, id, 'functions');
    const next = {
      code: input.code,
      env: input.env ?? row.env,
      timeoutMs: input.timeoutMs ?? row.timeoutMs,
      memoryMb: input.memoryMb ?? row.memoryMb,
    };
    const checked = await this.checkModule(next);
    try {
      const deployed = await this.storage.functions.deploy(id, {
        ...next,
        updatedAt: new Date().toISOString(),
      });
      if (deployed === null) throw notFound(id);
      checked.keep(`${id}@${deployed.version}`);
      return publicFunction(deployed);
    } finally {
      checked.dispose();
    }
  }

  async delete(userId: string, id: string) {
    await this.found(userId, id, 'functions');
    if (!(await this.storage.functions.delete(id))) throw notFound(id);
    this.sandbox.retire(id);
    // A trigger that could only fail from now on goes with its function, and so does its hidden subscription.
    for (const trigger of await this.storage.triggers.deleteTargeting({ function: id }))
      await this.storage.webhooks.delete(trigger.clusterId, triggerSubscriptionId(trigger.id));
    return { _id: id, deleted: true as const };
  }

  async invocations(userId: string, id: string, page: { limit: number; skip: number }) {
    await this.found(userId, id, 'read');
    await this.history.flush();
    const { rows, total } = await this.storage.functions.invocations(id, page.limit, page.skip);
    return { data: rows.map(publicInvocation), total, limit: page.limit, skip: page.skip };
  }

  /** `POST /api/functions/{id}/invoke`: a member who may run functions, on a running cluster. */
  async invoke(userId: string, id: string, input: unknown): Promise<string> {
    const row = await this.found(userId, id, 'functions');
    await this.requireRunning(row.clusterId);
    return answerOf(row, await this.run(row, input, 'http'));
  }

  /** `POST /api/v1/functions/{name}/invoke`: the key's authentication already checked scope, role and cluster. */
  async invokeByName(clusterId: string, name: string, input: unknown): Promise<string> {
    const row = await this.storage.functions.byName(clusterId, name);
    if (row === null) throw new ApiError('not_found', `Function "${name}" not found`, { name });
    return answerOf(row, await this.run(row, input, 'http'));
  }

  /**
   * Runs a function and records the invocation; also what triggers call. The record joins the next batch of the
   * invocation log rather than holding the answer up; a failed run waits for it, as the failing streak reads it.
   */
  async run(row: FunctionRow, input: unknown, trigger: InvocationTrigger): Promise<RunOutcome> {
    const startedAt = new Date().toISOString();
    const outcome = await this.sandbox.run(
      {
        key: `${row.id}@${row.version}`,
        code: row.code,
        env: row.env,
        timeoutMs: row.timeoutMs,
        memoryMb: row.memoryMb,
      },
      JSON.stringify(input ?? null),
      dataBridge(this.data, row.clusterId),
    );
    const invocation: InvocationRow = {
      id: `inv_${ulid()}`,
      functionId: row.id,
      version: row.version,
      status: outcome.ok ? 'ok' : outcome.failure,
      trigger,
      durationMs: outcome.durationMs,
      startedAt,
      logs: outcome.logs,
      error: outcome.ok ? null : outcome.error,
    };
    this.history.add(invocation);
    this.onInvocation?.(row.clusterId);
    if (!outcome.ok) {
      await this.history.flush();
      await noticeFailing(this.storage, this.notices, row, invocation);
    }
    return outcome;
  }

  /**
   * Loads the module in the sandbox with its limits: what cannot run is 400 and is not stored. What can is the
   * version's warm isolate once stored (`keep`), so the first run after a deploy does not load it again.
   */
  private async checkModule(program: {
    code: string;
    env: Record<string, string>;
    timeoutMs: number;
    memoryMb: number;
  }): Promise<CheckedModule> {
    try {
      return await this.sandbox.check(program);
    } catch (error) {
      if (error instanceof ModuleError)
        throw new ApiError('validation_error', error.message, { in: 'body', field: 'code' });
      throw error;
    }
  }

  private async requireRunning(clusterId: string): Promise<void> {
    const cluster = await this.storage.clusters.find(clusterId);
    if (cluster === null || cluster.status !== 'running') throw new ApiError('cluster_unavailable');
  }

  /** The function when the user may do `action` on its cluster; a non-member sees 404, as for no function. */
  private async found(userId: string, id: string, action: ClusterAction): Promise<FunctionRow> {
    const row = await this.storage.functions.get(id);
    const role = row && (await this.storage.clusters.role(row.clusterId, userId));
    if (!row || !role) throw notFound(id);
    rejectViolation(checkClusterAccess(role, action));
    return row;
  }
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `Function "${id}" not found`, { id });
}

/** The 200 body of a successful run, or the run's 422. */
function answerOf(row: FunctionRow, outcome: RunOutcome): string {
  if (!outcome.ok) {
    const violation = functionFailure(outcome.failure, outcome.error, row);
    throw new ApiError(violation.code, violation.message, violation.details);
  }
  return `{"result":${outcome.resultText},"logs":${JSON.stringify(outcome.logs)},"durationMs":${outcome.durationMs}}`;
}
