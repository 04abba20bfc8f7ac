import type { Sql, TransactionSql } from 'postgres';
import { documentText } from '../../document-text.js';
import type { CaptureTaker } from '../deliveries.js';
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
import { COLUMNS } from './document-operations.js';
import type { SubscriptionPresence } from './presence.js';

/** The channel on which instances tell each other that a commit captured deliveries. */
export const CAPTURE_CHANNEL = 'dataplatform_webhook_deliveries';

/** The outbox work of one write transaction. */
export interface PostgresCapture {
  /** Writes the events and deliveries of the operations that succeeded; call inside the transaction. */
  record(results: readonly OperationResult[]): Promise<void>;
  /** What `record` wrote, for this instance's worker once the transaction commits. */
  readonly captured: Captured | undefined;
}

/** Keeps a promise sent ahead from counting as unhandled; it is awaited later. */
function ahead<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** Events and deliveries written in the document write's own transaction, on PostgreSQL. */
export class PostgresOutbox {
  readonly signal = new CaptureSignal();
  private listening: Promise<unknown> | undefined;

  constructor(
    private readonly sql: Sql,
    readonly presence: SubscriptionPresence,
  ) {}

  /** Whether writes of the cluster go through the outbox (a value when known, else a promise). */
  watching(clusterId: string): boolean | Promise<boolean> {
    return this.presence.present(clusterId);
  }

  /**
   * Called first inside the write's transaction of a watched cluster. Sends, without waiting, the read of the
   * cluster's active subscriptions (locked against removal until the write commits, so a concurrent DELETE
   * never makes the write fail) and of the documents the operations change (locked, so the state read is the
   * one they change); the operations queue behind these on the same connection.
   */
  open(
    tx: TransactionSql,
    clusterId: string,
    operations: readonly DocumentOperation[],
    collectionIds: ReadonlyMap<string, string | undefined>,
  ): PostgresCapture {
    const subscriptions = ahead(
      tx<SubscriptionTarget[]>`
        SELECT s.id, s.events, s.collection, s.delivery, s.cluster_id AS "clusterId", c.owner_id AS "ownerId", s.url, s.secret,
          s.previous_secret AS "previousSecret", s.previous_secret_expires_at AS "previousSecretExpiresAt"
        FROM webhook_subscriptions s JOIN clusters c ON c.id = s.cluster_id
        WHERE s.cluster_id = ${clusterId} AND s.active FOR KEY SHARE OF s`.execute(),
    );
    const names = new Map<string, string>();
    const cids: string[] = [];
    const ids: string[] = [];
    for (const target of changeTargets(operations)) {
      const collectionId = collectionIds.get(target.collection);
      if (collectionId === undefined) continue;
      names.set(collectionId, target.collection);
      cids.push(collectionId);
      ids.push(target.id);
    }
    const before =
      ids.length === 0
        ? Promise.resolve([])
        : ahead(
            tx
              .unsafe<(DocumentRow & { collectionId: string })[]>(
                `SELECT documents.collection_id::text AS "collectionId", ${COLUMNS}
                 FROM unnest($1::bigint[], $2::text[]) AS k(cid, did)
                 JOIN documents ON collection_id = k.cid AND id = k.did COLLATE "C"
                 ORDER BY documents.collection_id, documents.id
                 FOR UPDATE OF documents`,
                [cids, ids] as never[],
                { prepare: true },
              )
              .execute(),
          );
    let captured: PostgresCapture['captured'];
    return {
      get captured() {
        return captured;
      },
      record: async (results: readonly OperationResult[]) => {
        const [active, rows] = await Promise.all([subscriptions, before]);
        if (active.length === 0) return;
        const state = new Map<string, string | null>();
        for (const row of rows) state.set(targetKey(names.get(row.collectionId)!, row.id), documentText(row));
        const changes = changesOf(operations, results, state);
        captured = await this.write(tx, clusterId, active, changes);
      },
    };
  }

  /** Called after a write transaction committed: hands its deliveries to this instance's worker. */
  committed(capture: PostgresCapture | null): void {
    if (capture?.captured) this.signal.committed(capture.captured);
  }

  /** Makes `taker` the taker of this instance's captures (see DeliveryStore.takeCaptured). */
  setTaker(taker: CaptureTaker): () => void {
    return this.signal.setTaker(taker);
  }

  /**
   * Subscribes to this instance's captures or due deliveries; the first subscription also listens for other
   * instances' announcements (LISTEN on a connection of its own).
   */
  subscribe(listener: () => void, kind: 'captured' | 'due'): () => void {
    this.listening ??= this.sql
      .listen(CAPTURE_CHANNEL, () => this.signal.due())
      .catch(() => {
        // Without the channel, workers still find deliveries by polling.
        this.listening = undefined;
      });
    return kind === 'due' ? this.signal.subscribeDue(listener) : this.signal.subscribe(listener);
  }

  /**
   * Writes the events and deliveries of a write. Deliveries leased to this instance's worker need no one else;
   * without a taker, NOTIFY tells the other instances (on commit) that deliveries are due.
   */
  private async write(
    tx: TransactionSql,
    clusterId: string,
    subscriptions: readonly SubscriptionTarget[],
    changes: ReturnType<typeof changesOf>,
  ): Promise<Captured | undefined> {
    const now = new Date().toISOString();
    const leasedUntil = this.signal.leaseUntil();
    const rows = outboxRows(clusterId, subscriptions, changes, now, leasedUntil);
    if (rows.deliveries.length === 0) return undefined;
    await this.insert(tx, clusterId, rows, now, leasedUntil);
    return capturedOf(rows, subscriptions, leasedUntil !== undefined);
  }

  /**
   * Writes event and delivery rows in one statement, each pending delivery next due as its row says (leased to
   * this instance's worker, or due now; a `streamed` one never), announced to every instance with NOTIFY when the
   * transaction commits and nothing was leased.
   */
  async insert(
    tx: TransactionSql,
    clusterId: string,
    { events, deliveries }: OutboxRows,
    now: string,
    leasedUntil: string | undefined,
  ): Promise<void> {
    await tx
      .unsafe(
        `WITH e AS (
           INSERT INTO webhook_events (id, cluster_id, type, collection, document_id, body, created_at)
           SELECT r.id, $1, r.type, r.collection, r.document_id, r.body, $2
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
             AS r(id, type, collection, document_id, body)
         ), d AS (
           INSERT INTO webhook_deliveries (id, subscription_id, event_id, status, next_attempt_at, created_at)
           SELECT r.id, r.subscription_id, r.event_id, r.status, r.next_attempt_at, $2
           FROM unnest($8::text[], $9::text[], $10::text[], $13::text[], $11::text[])
             AS r(id, subscription_id, event_id, status, next_attempt_at)
         )
         SELECT CASE WHEN $12::boolean THEN pg_notify('${CAPTURE_CHANNEL}', '') END`,
        [
          clusterId,
          now,
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => e.collection),
          events.map((e) => e.documentId),
          events.map((e) => e.body),
          deliveries.map((d) => d.id),
          deliveries.map((d) => d.subscriptionId),
          deliveries.map((d) => d.eventId),
          deliveries.map((d) => d.nextAttemptAt),
          leasedUntil === undefined,
          deliveries.map((d) => d.status),
        ] as never[],
        { prepare: true },
      )
      .execute();
  }
}
