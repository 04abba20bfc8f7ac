import type { OperationResult } from './documents.js';

/** Asks a write to record its answer under an Idempotency-Key, in the same transaction as the write. */
export interface IdempotencyRecordInput {
  key: string;
  fingerprint: string;
  status: number;
  /** The answer's text, composed by the caller from the write's results inside the transaction. */
  answer: (results: readonly OperationResult[]) => string;
  /** Drop any record of this key older than this instant (ISO 8601) before recording. */
  expiredBefore: string;
}

/** An answer recorded under an Idempotency-Key. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  createdAt: string;
}

/** Answers recorded under Idempotency-Keys, per cluster. */
export interface IdempotencyStore {
  find(clusterId: string, key: string, notBefore: string): Promise<IdempotencyRecord | null>;
  /** Removes records older than `before`; returns how many. */
  purgeExpired(before: string): Promise<number>;
}
