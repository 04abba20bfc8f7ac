import {
  type ClusterAction,
  checkClusterAccess,
  type Trigger,
  type TriggerRun,
  type TriggerSource,
  type TriggerTarget,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import type { FunctionCaller, FunctionModel } from './functions.js';
import { createIdGenerator } from './ids.js';

interface MockTrigger extends Trigger {
  runs: TriggerRun[];
}

/**
 * Triggers as the mocks keep them, with the server's role rules and target checks. Nothing fires on its own in
 * the mocks (no clock, no outbox); a manual run is recorded as a run that succeeded at once.
 */
export class TriggerModel {
  readonly #triggers = new Map<string, MockTrigger>();
  readonly #id = createIdGenerator();

  constructor(private readonly functions: FunctionModel) {}

  clear(): void {
    this.#triggers.clear();
  }

  create(
    caller: FunctionCaller,
    body: {
      name: string;
      source: TriggerSource;
      target: TriggerTarget;
      active?: boolean;
      clusterId?: string;
    },
  ) {
    const fn = this.#target(caller, body.target);
    const trigger: MockTrigger = {
      _id: `trg_${this.#id()}`,
      name: body.name,
      clusterId: body.clusterId ?? fn.clusterId,
      source: body.source,
      target: body.target,
      active: body.active ?? true,
      createdAt: new Date().toISOString(),
      lastRunAt: null,
      runs: [],
    };
    if (trigger.clusterId !== fn.clusterId) throw targetNotFound(body.target);
    this.#triggers.set(trigger._id, trigger);
    return this.#public(trigger);
  }

  list(caller: FunctionCaller, query: { clusterId?: string; limit: number; skip: number }) {
    const visible = [...this.#triggers.values()].filter(
      (t) =>
        (query.clusterId === undefined || t.clusterId === query.clusterId) &&
        caller.clusters.membership(caller.userId, caller.account, t.clusterId) !== null,
    );
    return {
      data: visible.slice(query.skip, query.skip + query.limit).map((t) => this.#public(t)),
      total: visible.length,
      limit: query.limit,
      skip: query.skip,
    };
  }

  get(caller: FunctionCaller, id: string) {
    return this.#public(this.#require(caller, id, 'read'));
  }

  update(
    caller: FunctionCaller,
    id: string,
    change: Partial<Pick<Trigger, 'name' | 'source' | 'target' | 'active'>>,
  ) {
    const trigger = this.#require(caller, id, 'triggers');
    if (change.target !== undefined) this.#target(caller, change.target);
    Object.assign(trigger, Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)));
    return this.#public(trigger);
  }

  setActive(caller: FunctionCaller, id: string, active: boolean) {
    const trigger = this.#require(caller, id, 'triggers');
    trigger.active = active;
    return this.#public(trigger);
  }

  delete(caller: FunctionCaller, id: string) {
    this.#require(caller, id, 'triggers');
    this.#triggers.delete(id);
    return { _id: id, deleted: true as const };
  }

  run(caller: FunctionCaller, id: string) {
    return this.#run(this.#require(caller, id, 'triggers'));
  }

  /** The data-plane run, in the cluster a key acts on. */
  runInCluster(clusterId: string, id: string) {
    const trigger = this.#triggers.get(id);
    if (!trigger || trigger.clusterId !== clusterId)
      throw new ApiError('not_found', `Trigger "${id}" not found`, { id });
    return this.#run(trigger);
  }

  runs(caller: FunctionCaller, id: string, page: { limit: number; skip: number }) {
    const trigger = this.#require(caller, id, 'read');
    return {
      data: trigger.runs.slice(page.skip, page.skip + page.limit),
      total: trigger.runs.length,
      limit: page.limit,
      skip: page.skip,
    };
  }

  #run(trigger: MockTrigger): TriggerRun {
    const now = new Date().toISOString();
    const queued: TriggerRun = {
      _id: `trun_${this.#id()}`,
      triggerId: trigger._id,
      status: 'queued',
      startedAt: now,
      durationMs: null,
      event: { manual: true },
      error: null,
    };
    trigger.runs.unshift({ ...queued, status: 'ok', durationMs: 0 });
    trigger.lastRunAt = now;
    return queued;
  }

  #target(caller: FunctionCaller, target: TriggerTarget) {
    // The mocks keep webhooks apart from clusters, so a webhook target's cluster cannot be checked here.
    if ('webhook' in target)
      throw new ApiError('validation_error', 'The mocks take function targets only', {
        in: 'body',
        field: 'target',
      });
    try {
      return this.functions.find(caller, target.function, 'triggers');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') throw targetNotFound(target);
      throw error;
    }
  }

  #require(caller: FunctionCaller, id: string, action: ClusterAction): MockTrigger {
    const trigger = this.#triggers.get(id);
    const membership =
      trigger && caller.clusters.membership(caller.userId, caller.account, trigger.clusterId);
    if (!trigger || !membership) throw new ApiError('not_found', `Trigger "${id}" not found`, { id });
    const violation = checkClusterAccess(membership.role, action);
    if (violation) throw ApiError.fromViolation(violation);
    return trigger;
  }

  #public(trigger: MockTrigger): Trigger {
    const { runs: _runs, ...record } = trigger;
    return record;
  }
}

function targetNotFound(target: TriggerTarget): ApiError {
  const id = 'function' in target ? target.function : target.webhook;
  return new ApiError('not_found', `Target "${id}" not found in the trigger's cluster`, { ...target });
}
