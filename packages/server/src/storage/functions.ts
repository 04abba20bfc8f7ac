import type { InvocationStatus, InvocationTrigger } from '@dataplatform/contract';

/** A stored function with its current version's code. */
export interface FunctionRow {
  id: string;
  clusterId: string;
  name: string;
  version: number;
  code: string;
  env: Record<string, string>;
  timeoutMs: number;
  memoryMb: number;
  createdAt: string;
  updatedAt: string;
}

/** A new function, stored as version 1. */
export type NewFunction = Omit<FunctionRow, 'version'>;

/** What a deploy changes; the version goes up by one. */
export interface FunctionDeployment {
  code: string;
  env: Record<string, string>;
  timeoutMs: number;
  memoryMb: number;
  updatedAt: string;
}

/** One recorded run of a function. */
export interface InvocationRow {
  id: string;
  functionId: string;
  version: number;
  status: InvocationStatus;
  trigger: InvocationTrigger;
  durationMs: number;
  startedAt: string;
  logs: string[];
  error: { message: string; stack: string | null } | null;
}

/** A page of rows and the number of all of them. */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** Which functions a list shows: those of the clusters `userId` is a member of, or of one of them. */
export interface FunctionListFilter {
  userId: string;
  clusterId: string | null;
  limit: number;
  skip: number;
}

/** Functions and their invocations. Rows go with their cluster (ON DELETE CASCADE). */
export interface FunctionStore {
  /** Stores version 1; 'name_taken' when the cluster already has a function of that name. */
  create(fn: NewFunction): Promise<'created' | 'name_taken'>;
  get(id: string): Promise<FunctionRow | null>;
  byName(clusterId: string, name: string): Promise<FunctionRow | null>;
  /** Oldest first. */
  list(filter: FunctionListFilter): Promise<Page<FunctionRow>>;
  /** Stores the next version in one statement, so two deploys never get the same number; null when gone. */
  deploy(id: string, deployment: FunctionDeployment): Promise<FunctionRow | null>;
  /** Removes the function and its invocations; false when there was none. */
  delete(id: string): Promise<boolean>;
  /**
   * Stores runs in one write, in the order given, without waiting for the write's flush to disk (history, not data);
   * a run of a function deleted meanwhile is left out.
   */
  recordInvocations(invocations: InvocationRow[]): Promise<void>;
  /** Newest first. */
  invocations(functionId: string, limit: number, skip: number): Promise<Page<InvocationRow>>;
}
