import type { TriggerSource, TriggerTarget } from '@dataplatform/contract';
import type { Page } from './functions.js';

/** A stored trigger. */
export interface TriggerRow {
  id: string;
  clusterId: string;
  name: string;
  source: TriggerSource;
  target: TriggerTarget;
  active: boolean;
  createdAt: string;
  lastRunAt: string | null;
  /** A schedule's next tick (UTC); null for document triggers. Claiming a tick moves it on. */
  nextRunAt: string | null;
}

/** One run of a trigger. */
export interface TriggerRunRow {
  id: string;
  triggerId: string;
  status: 'queued' | 'ok' | 'error';
  startedAt: string;
  durationMs: number | null;
  event: unknown;
  error: string | null;
}

/** Which triggers a list shows: those of the clusters `userId` is a member of, or of one of them. */
export interface TriggerListFilter {
  userId: string;
  clusterId: string | null;
  limit: number;
  skip: number;
}

/** A schedule tick an instance claimed: the trigger as it was, and the tick it fires for. */
export interface ClaimedTick {
  trigger: TriggerRow;
  scheduledAt: string;
}

/** Triggers and their runs. Rows go with their cluster's purge. */
export interface TriggerStore {
  create(trigger: TriggerRow): Promise<void>;
  get(id: string): Promise<TriggerRow | null>;
  /** Oldest first. */
  list(filter: TriggerListFilter): Promise<Page<TriggerRow>>;
  /** Writes every field but id, cluster and creation time; null when gone. */
  update(trigger: TriggerRow): Promise<TriggerRow | null>;
  delete(id: string): Promise<boolean>;
  /** Deletes the triggers that target this function or webhook, answering them. */
  deleteTargeting(target: TriggerTarget): Promise<TriggerRow[]>;
  /**
   * Claims the schedule ticks due at `now` of active triggers in running clusters: each claim moves `nextRunAt`
   * from the value read to `next(trigger)` in one compare-and-set, so of several instances exactly one wins a tick.
   * A paused cluster's due tick stays due and is claimed once after it resumes.
   */
  /** Whether some trigger has a next tick: until one has, the scheduler leaves the cron parser unloaded. */
  hasSchedules(): Promise<boolean>;
  claimDueTicks(
    now: string,
    next: (trigger: TriggerRow) => string | null,
    limit: number,
  ): Promise<ClaimedTick[]>;
  recordRun(run: TriggerRunRow): Promise<void>;
  finishRun(run: Pick<TriggerRunRow, 'id' | 'triggerId' | 'status' | 'durationMs' | 'error'>): Promise<void>;
  /** Newest first. */
  runs(triggerId: string, limit: number, skip: number): Promise<Page<TriggerRunRow>>;
}
