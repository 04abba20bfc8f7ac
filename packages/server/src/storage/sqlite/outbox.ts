import type Database from 'better-sqlite3';
import { documentText } from '../../document-text.js';
import type { DocumentOperation, DocumentRow, OperationResult } from '../documents.js';
import {
  type Captured,
  CaptureSignal,
  capturedOf,
  changesOf,
  changeTargets,
  type OutboxRows,
  outboxRows,
  targetKey,
} from '../outbox.js';
import type { SubscriptionTarget } from '../webhooks.js';
import type { SqliteSubscriptionCache } from './webhooks.js';

/** The outbox work of one write transaction: what it read before its operations, written after them. */
export interface SqliteCapture {
  /**
   * Writes the events and deliveries of the operations that succeeded; call inside the transaction. Returns what
   * to hand to `committed` once the transaction has committed.
   */
  record(results: readonly OperationResult[]): Captured;
}

/** Subscriptions that could want an event of these operations (by collection). */
function relevant(
  subscriptions: readonly SubscriptionTarget[],
  operations: readonly DocumentOperation[],
): SubscriptionTarget[] {
  const collections = new Set<string>();
  for (const operation of operations) {
    if (operation.kind !== 'get' && operation.kind !== 'refused') collections.add(operation.collection);
  }
  return subscriptions.filter((s) => s.collection === null || collections.has(s.collection));
}

/** Events and deliveries written in the document write's own transaction, on SQLite. */
export class SqliteOutbox {
  readonly signal = new CaptureSignal();
  private readonly stmt;

  constructor(
    db: Database.Database,
    private readonly subscriptions: SqliteSubscriptionCache,
  ) {
    this.stmt = {
      get: db.prepare<[number, string], DocumentRow>(
        'SELECT id, data, created_at AS createdAt, updated_at AS updatedAt FROM documents WHERE collection_id = ? AND id = ?',
      ),
      event: db.prepare(
        `INSERT INTO webhook_events (id, cluster_id, type, collection, document_id, body, created_at)
         VALUES (@id, @clusterId, @type, @collection, @documentId, @body, @createdAt)`,
      ),
      delivery: db.prepare(
        `INSERT INTO webhook_deliveries (id, subscription_id, event_id, status, next_attempt_at, created_at)
         VALUES (@id, @subscriptionId, @eventId, @status, @nextAttemptAt, @createdAt)`,
      ),
    };
  }

  /**
   * Called inside the write's transaction before its operations. Null (and nothing else done) when no active
   * subscription of the cluster could want these operations' events: the common case costs a map lookup.
   */
  open(
    clusterId: string,
    operations: readonly DocumentOperation[],
    collectionIds: ReadonlyMap<string, number | undefined>,
  ): SqliteCapture | null {
    const active = this.subscriptions.active(clusterId);
    if (active.length === 0) return null;
    const subscriptions = relevant(active, operations);
    if (subscriptions.length === 0) return null;
    const before = new Map<string, string | null>();
    for (const target of changeTargets(operations)) {
      const collectionId = collectionIds.get(target.collection);
      const row = collectionId === undefined ? undefined : this.stmt.get.get(collectionId, target.id);
      before.set(targetKey(target.collection, target.id), row ? documentText(row) : null);
    }
    return {
      record: (results) => {
        const changes = changesOf(operations, results, before);
        const leasedUntil = this.signal.leaseUntil();
        const rows = outboxRows(clusterId, subscriptions, changes, new Date().toISOString(), leasedUntil);
        this.insert(rows);
        return capturedOf(rows, subscriptions, leasedUntil !== undefined);
      },
    };
  }

  /** Writes event and delivery rows; call inside a transaction. */
  insert(rows: OutboxRows): void {
    for (const event of rows.events) this.stmt.event.run(event);
    for (const delivery of rows.deliveries) this.stmt.delivery.run(delivery);
  }

  /**
   * Called after a write transaction committed: hands its deliveries to this process's worker. What a write that
   * rolled back captured is simply dropped: its rows are gone with it.
   */
  committed(captured: Captured | undefined): void {
    if (captured) this.signal.committed(captured);
  }
}
