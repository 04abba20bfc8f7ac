/**
 * Periodic work that must run once per period across every server instance. An instance runs a task only
 * after claiming it in the database, so instances never repeat each other's work.
 */
export interface TaskStore {
  /** Claims `name` when it is due at `now`, making it due again at `nextRunAt`; false when not due or taken. */
  claim(name: string, now: string, nextRunAt: string): Promise<boolean>;
}
