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

/** How the triggers find a webhook subscription by id (the mocks keep webhooks apart from clusters). */
export type WebhookLookup = (id: string) => { delivery: string } | undefined;

/**
 * Triggers as the mocks keep them, with the server's role rules and target checks (a function or a webhook
 * delivered over HTTP). Nothing fires on its own in the mocks (no clock, no outbox, no posts); a manual run is
 * recorded as a run that succeeded at once.
 */
export class TriggerModel {
  readonly #triggers = new Map<string, MockTrigger>();
  readonly #id = createIdGenerator();

  /** Set by the mock instance to its webhook store; until then, no webhook target is found. */
  webhooks: WebhookLookup = () => undefined;

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
    const targetCluster = this.#target(caller, body.target, body.clusterId);
    const trigger: MockTrigger = {
      _id: `trg_${this.#id()}`,
      name: body.name,
      clusterId: body.clusterId ?? targetCluster,
      source: body.source,
      target: body.target,
      active: body.active ?? true,
      createdAt: new Date().toISOString(),
      lastRunAt: null,
      runs: [],
    };
    if (trigger.clusterId !== targetCluster) throw targetNotFound(body.target);
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
    if (change.target !== undefined) this.#target(caller, change.target, trigger.clusterId);
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

  /**
   * The cluster of the target, checked as the server checks it: a function of a cluster where the caller may
   * manage triggers, or a webhook delivered over HTTP. A webhook has no cluster in the mocks, so it stands in
   * `clusterId` (the trigger's), or in the caller's own cluster when the body names none.
   */
  #target(caller: FunctionCaller, target: TriggerTarget, clusterId: string | undefined): string {
    if ('webhook' in target) {
      const membership = caller.clusters.membership(caller.userId, caller.account, clusterId ?? null);
      const webhook = this.webhooks(target.webhook);
      if (!membership || !webhook) throw targetNotFound(target);
      const violation = checkClusterAccess(membership.role, 'triggers');
      if (violation) throw ApiError.fromViolation(violation);
      if (webhook.delivery !== 'http')
        throw new ApiError(
          'validation_error',
          'Invalid body field "target.webhook": a webhook delivered as a stream cannot be a target',
          { in: 'body', field: 'target.webhook' },
        );
      return membership.clusterId;
    }
    try {
      return this.functions.find(caller, target.function, 'triggers').clusterId;
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
  return 'function' in target
    ? new ApiError('not_found', `Function "${target.function}" not found in the trigger's cluster`, {
        ...target,
      })
    : new ApiError('not_found', `Webhook "${target.webhook}" not found in the trigger's cluster`, {
        ...target,
      });
}
