import {
  type ClusterAction,
  checkClusterAccess,
  type TriggerCreate,
  type TriggerSource,
  type TriggerTarget,
  type TriggerUpdate,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import { ulid } from '../ids.js';
import type { TriggerRow, TriggerRunRow } from '../storage/triggers.js';
import type { Storage } from '../storage/types.js';
import { checkSchedule, loadCron, nextTick } from '../triggers/cron.js';
import type { TriggerRunner } from '../triggers/runner.js';
import { subscriptionOf, triggerSubscriptionId } from '../triggers/subscriptions.js';
import { type Clock, iso } from '../webhooks/clock.js';

type Create = z.output<typeof TriggerCreate>;
type Update = z.output<typeof TriggerUpdate>;

/** A trigger as the API shows it. */
export function publicTrigger(row: TriggerRow) {
  const { id, name, clusterId, source, target, active, createdAt, lastRunAt } = row;
  return { _id: id, name, clusterId, source, target, active, createdAt, lastRunAt };
}

function publicRun(row: TriggerRunRow) {
  const { id, ...rest } = row;
  return { _id: id, ...rest };
}

/**
 * Triggers of the user's clusters. A source and a target are checked before anything is stored: a schedule's cron
 * expression and time zone, and a target that exists in the trigger's own cluster (404 otherwise). Reading is any
 * member's; everything else needs the `triggers` action (owners, admins, developers).
 */
export class TriggerService {
  constructor(
    private readonly storage: Storage,
    private readonly runner: TriggerRunner,
    private readonly clock: Clock,
  ) {}

  async create(userId: string, input: Create) {
    const clusterId =
      input.clusterId ??
      (await this.clusterOfTarget(userId, input.target)) ??
      (await this.storage.clusters.membership(userId, null))?.clusterId;
    const role = clusterId && (await this.storage.clusters.role(clusterId, userId));
    if (!clusterId || !role) throw targetNotFound(input.target);
    rejectViolation(checkClusterAccess(role, 'triggers'));
    await this.checkTarget(clusterId, input.target);
    const row: TriggerRow = {
      id: `trg_${ulid()}`,
      clusterId,
      name: input.name,
      source: input.source,
      target: input.target,
      active: input.active ?? true,
      createdAt: iso(this.clock.now()),
      lastRunAt: null,
      nextRunAt: null,
    };
    row.nextRunAt = await this.firstTick(row.source);
    await this.storage.triggers.create(row);
    await this.subscribe(row);
    return publicTrigger(row);
  }

  async list(userId: string, query: { clusterId?: string; limit: number; skip: number }) {
    const { rows, total } = await this.storage.triggers.list({
      userId,
      clusterId: query.clusterId ?? null,
      limit: query.limit,
      skip: query.skip,
    });
    return { data: rows.map(publicTrigger), total, limit: query.limit, skip: query.skip };
  }

  async get(userId: string, id: string) {
    return publicTrigger(await this.found(userId, id, 'read'));
  }

  async update(userId: string, id: string, change: Update) {
    const row = await this.found(userId, id, 'triggers');
    if (change.target !== undefined) await this.checkTarget(row.clusterId, change.target);
    const next: TriggerRow = {
      ...row,
      name: change.name ?? row.name,
      source: change.source ?? row.source,
      target: change.target ?? row.target,
      active: change.active ?? row.active,
    };
    if (change.source !== undefined) next.nextRunAt = await this.firstTick(next.source);
    const saved = this.saved(await this.storage.triggers.update(next), id);
    if (change.source !== undefined || change.active !== undefined) await this.resubscribe(next);
    return saved;
  }

  async delete(userId: string, id: string) {
    const row = await this.found(userId, id, 'triggers');
    await this.storage.webhooks.delete(row.clusterId, triggerSubscriptionId(id));
    if (!(await this.storage.triggers.delete(id))) throw notFound(id);
    return { _id: id, deleted: true as const };
  }

  async setActive(userId: string, id: string, active: boolean) {
    const row = await this.found(userId, id, 'triggers');
    if (row.active === active) return publicTrigger(row);
    // A resumed schedule starts from now: the ticks it was paused for are skipped, not replayed.
    const nextRunAt = active ? await this.firstTick(row.source) : row.nextRunAt;
    const next = { ...row, active, nextRunAt };
    const saved = this.saved(await this.storage.triggers.update(next), id);
    await this.resubscribe(next);
    return saved;
  }

  /** `POST /api/triggers/{id}/run`: one manual run now, answered with the queued run. */
  async run(userId: string, id: string) {
    const row = await this.found(userId, id, 'triggers');
    // A paused cluster answers no data request, and a run would make some.
    const cluster = await this.storage.clusters.find(row.clusterId);
    if (cluster === null || cluster.status !== 'running') throw new ApiError('cluster_unavailable');
    return publicRun(await this.runner.start(row, 'manual', { manual: true }));
  }

  /** `POST /api/v1/triggers/{id}/run`: the key's authentication already checked scope, role and cluster. */
  async runInCluster(clusterId: string, id: string) {
    const row = await this.storage.triggers.get(id);
    if (row === null || row.clusterId !== clusterId) throw notFound(id);
    return publicRun(await this.runner.start(row, 'manual', { manual: true }));
  }

  async runs(userId: string, id: string, page: { limit: number; skip: number }) {
    await this.found(userId, id, 'read');
    const { rows, total } = await this.storage.triggers.runs(id, page.limit, page.skip);
    return { data: rows.map(publicRun), total, limit: page.limit, skip: page.skip };
  }

  /** Gives an active document trigger its hidden subscription: from now on every write captures its events. */
  private async subscribe(row: TriggerRow): Promise<void> {
    const subscription = subscriptionOf(row, iso(this.clock.now()));
    if (subscription) await this.storage.webhooks.create(subscription);
  }

  /**
   * A changed source or state takes a new subscription; events captured for the old one and not yet run are
   * dropped with it, as a paused trigger skips events.
   */
  private async resubscribe(row: TriggerRow): Promise<void> {
    await this.storage.webhooks.delete(row.clusterId, triggerSubscriptionId(row.id));
    await this.subscribe(row);
  }

  private async firstTick(source: TriggerSource): Promise<string | null> {
    if (source.type !== 'schedule') return null;
    await loadCron();
    checkSchedule(source);
    return nextTick(source, iso(this.clock.now()));
  }

  /**
   * The cluster of the target, when the body names none: a trigger lives where its target does. A webhook is
   * looked for among the user's clusters (webhooks are stored per cluster); creating a trigger is rare.
   */
  private async clusterOfTarget(userId: string, target: TriggerTarget): Promise<string | null> {
    if ('function' in target) return (await this.storage.functions.get(target.function))?.clusterId ?? null;
    const { rows } = await this.storage.clusters.listForMember(userId, { limit: 1000, skip: 0 });
    for (const cluster of rows)
      if (await this.storage.webhooks.find(cluster.id, target.webhook)) return cluster.id;
    return null;
  }

  private async checkTarget(clusterId: string, target: TriggerTarget): Promise<void> {
    if ('function' in target) {
      const fn = await this.storage.functions.get(target.function);
      if (fn?.clusterId !== clusterId) throw targetNotFound(target);
      return;
    }
    const webhook = await this.storage.webhooks.find(clusterId, target.webhook);
    if (webhook === null) throw targetNotFound(target);
    // The server never posts to a stream subscription's url: a local tool forwards its events.
    if (webhook.delivery !== 'http')
      throw new ApiError(
        'validation_error',
        'Invalid body field "target.webhook": a webhook delivered as a stream cannot be a target',
        { in: 'body', field: 'target.webhook' },
      );
  }

  private saved(row: TriggerRow | null, id: string) {
    if (row === null) throw notFound(id);
    return publicTrigger(row);
  }

  /** The trigger when the user may do `action` on its cluster; a non-member sees 404, as for no trigger. */
  private async found(userId: string, id: string, action: ClusterAction): Promise<TriggerRow> {
    const row = await this.storage.triggers.get(id);
    const role = row && (await this.storage.clusters.role(row.clusterId, userId));
    if (!row || !role) throw notFound(id);
    rejectViolation(checkClusterAccess(role, action));
    return row;
  }
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `Trigger "${id}" not found`, { id });
}

function targetNotFound(target: TriggerTarget): ApiError {
  return 'function' in target
    ? new ApiError('not_found', `Function "${target.function}" not found in the trigger's cluster`, target)
    : new ApiError('not_found', `Webhook "${target.webhook}" not found in the trigger's cluster`, target);
}
