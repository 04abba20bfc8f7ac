import { IDEMPOTENCY_WINDOW_MS } from '@dataplatform/contract';
import type { Answer } from './answers.js';

interface Entry {
  fingerprint: string;
  answer: Answer;
  recordedAt: number;
}

/** What the ledger says about a request that carries an Idempotency-Key. */
export type IdempotencyLookup = { kind: 'new' } | { kind: 'replay'; answer: Answer } | { kind: 'mismatch' };

/**
 * First answers to requests that carried an Idempotency-Key. The server keeps one ledger per cluster;
 * the mocks model a single cluster, so one ledger serves every key.
 */
export class IdempotencyLedger {
  readonly #entries = new Map<string, Entry>();

  /** Forgets every recorded answer. */
  clear(): void {
    this.#entries.clear();
  }

  /** Whether the key is new, replays an earlier answer, or was first used with another request. */
  lookup(key: string, fingerprint: string): IdempotencyLookup {
    const entry = this.#entries.get(key);
    if (!entry || Date.now() - entry.recordedAt >= IDEMPOTENCY_WINDOW_MS) return { kind: 'new' };
    if (entry.fingerprint !== fingerprint) return { kind: 'mismatch' };
    return { kind: 'replay', answer: entry.answer };
  }

  /** Remembers the first answer; the body is copied so later writes to the store cannot change the replay. */
  record(key: string, fingerprint: string, answer: Answer): void {
    const frozen: Answer = { ...answer, body: JSON.parse(JSON.stringify(answer.body)) };
    this.#entries.set(key, { fingerprint, answer: frozen, recordedAt: Date.now() });
  }
}
