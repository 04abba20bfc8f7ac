import type { Sql, TransactionSql } from 'postgres';
import type {
  AttemptRecord,
  CaptureTaker,
  ClaimedDelivery,
  DeliveryRecord,
  DeliveryStatus,
  DeliveryStore,
  FinishedAttempt,
  StreamedEvent,
  TestEvent,
} from '../deliveries.js';
import { capturedOf, testEventRows, WAITS_FOR_NO_EARLIER } from '../outbox.js';
import type { SubscriptionTarget } from '../webhooks.js';
import type { PostgresOutbox } from './outbox.js';

const RECORD = `d.id, d.subscription_id AS "webhookId", d.event_id AS "eventId", e.type AS "eventType",
  e.collection, e.document_id AS "documentId", d.status, d.attempts, d.created_at AS "createdAt",
  d.last_attempt_at AS "lastAttemptAt", d.next_attempt_at AS "nextAttemptAt",
  d.last_response_status AS "lastResponseStatus", d.last_error AS "lastError"`;

const ATTEMPT = `id, delivery_id AS "deliveryId", attempt, started_at AS "startedAt", status,
  response_status AS "responseStatus", duration_ms AS "durationMs", error, next_attempt_at AS "nextAttemptAt"`;

/** Deliveries and attempts on PostgreSQL, claimed with SKIP LOCKED so that instances never take the same one. */
export class PostgresDeliveries implements DeliveryStore {
  constructor(
    private readonly sql: Sql,
    private readonly outbox: PostgresOutbox,
  ) {}

  async claim(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    const rows = await this.sql.unsafe<ClaimedDelivery[]>(
      // A paused cluster's deliveries wait, due, until it runs again: held, not lost.
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d
         WHERE d.status = 'pending' AND d.next_attempt_at <= $1
           AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s JOIN clusters c ON c.id = s.cluster_id
                           WHERE s.id = d.subscription_id AND c.status <> 'running')
           AND ${WAITS_FOR_NO_EARLIER}
         ORDER BY d.next_attempt_at LIMIT $3
         FOR UPDATE OF d SKIP LOCKED
       ), claimed AS (
         UPDATE webhook_deliveries d SET next_attempt_at = $2 FROM due WHERE d.id = due.id
         RETURNING d.id, d.subscription_id, d.event_id, d.attempts, d.retries, d.manual
       )
       SELECT c.id, c.subscription_id AS "subscriptionId", s.cluster_id AS "clusterId", cl.owner_id AS "ownerId",
         c.event_id AS "eventId", e.type AS "eventType", e.body, s.url, s.secret,
         s.previous_secret AS "previousSecret", s.previous_secret_expires_at AS "previousSecretExpiresAt",
         c.attempts, c.retries, c.manual
       FROM claimed c
       JOIN webhook_events e ON e.id = c.event_id
       JOIN webhook_subscriptions s ON s.id = c.subscription_id
       JOIN clusters cl ON cl.id = s.cluster_id`,
      [now, leaseUntil, limit],
      { prepare: true },
    );
    return [...rows];
  }

  async finish(a: FinishedAttempt): Promise<void> {
    const record = (q: Sql | TransactionSql) =>
      q.unsafe(
        `WITH settled AS (
           UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = $2, last_response_status = $3,
             last_error = $4, status = $5, next_attempt_at = $6, retries = $7, manual = false
           WHERE id = $1 RETURNING id, attempts
         )
         INSERT INTO webhook_attempts
           (id, delivery_id, attempt, started_at, status, response_status, duration_ms, error, next_attempt_at)
         SELECT $8, id, attempts, $2, $9, $3, $10, $4, $6 FROM settled`,
        [
          a.deliveryId,
          a.startedAt,
          a.responseStatus,
          a.error,
          a.next.status,
          a.next.nextAttemptAt,
          a.next.retries,
          a.attemptId,
          a.succeeded ? 'succeeded' : 'failed',
          a.durationMs,
        ] as never[],
        { prepare: true },
      );
    const { disable } = a;
    if (!disable) {
      await record(this.sql);
      return;
    }
    const rows = await this.sql.begin(async (tx) => {
      const updated = await tx<{ clusterId: string }[]>`
        UPDATE webhook_subscriptions SET active = false WHERE id = ${disable.subscriptionId}
        RETURNING cluster_id AS "clusterId"`;
      await tx`
        UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = ${disable.reason}
        WHERE subscription_id = ${disable.subscriptionId} AND status = 'pending'`;
      await record(tx);
      return updated;
    });
    for (const row of rows) this.outbox.presence.forget(row.clusterId);
  }

  async list(subscriptionId: string, page: { status?: DeliveryStatus; limit: number; skip: number }) {
    const status = page.status ?? null;
    const [rows, [count]] = await Promise.all([
      this.sql.unsafe<DeliveryRecord[]>(
        `SELECT ${RECORD} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE d.subscription_id = $1 AND ($2::text IS NULL OR d.status = $2)
         ORDER BY d.created_at DESC, d.id DESC LIMIT $3 OFFSET $4`,
        [subscriptionId, status, page.limit, page.skip] as never[],
      ),
      this.sql.unsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM webhook_deliveries
         WHERE subscription_id = $1 AND ($2::text IS NULL OR status = $2)`,
        [subscriptionId, status] as never[],
      ),
    ]);
    return { rows: [...rows], total: count!.n };
  }

  async attempts(subscriptionId: string, deliveryId: string): Promise<AttemptRecord[] | null> {
    const [owned] = await this.sql`
      SELECT 1 FROM webhook_deliveries WHERE id = ${deliveryId} AND subscription_id = ${subscriptionId}`;
    if (!owned) return null;
    const rows = await this.sql.unsafe<AttemptRecord[]>(
      `SELECT ${ATTEMPT} FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [deliveryId],
    );
    return [...rows];
  }

  async resend(subscriptionId: string, deliveryId: string, now: string): Promise<DeliveryRecord | null> {
    // A finished delivery gets one manual attempt; a pending one only comes due now; a streamed one is never
    // posted, so it stays as it is.
    const [row] = await this.sql.unsafe<DeliveryRecord[]>(
      `WITH d AS (
         UPDATE webhook_deliveries SET manual = CASE WHEN status = 'pending' THEN manual ELSE true END,
           status = 'pending', next_attempt_at = $1
         WHERE id = $2 AND subscription_id = $3 AND status <> 'streamed' RETURNING *
       )
       SELECT ${RECORD} FROM d JOIN webhook_events e ON e.id = d.event_id`,
      [now, deliveryId, subscriptionId],
    );
    if (row) {
      this.outbox.signal.due();
      return row;
    }
    const [unchanged] = await this.sql.unsafe<DeliveryRecord[]>(
      `SELECT ${RECORD} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE d.id = $1 AND d.subscription_id = $2`,
      [deliveryId, subscriptionId],
    );
    return unchanged ?? null;
  }

  async createTest(
    clusterId: string,
    subscriptionId: string,
    event: TestEvent,
  ): Promise<DeliveryRecord | null> {
    const made = await this.sql.begin(async (tx) => {
      // Locked against removal until the commit, as a write's capture locks the subscriptions it targets.
      const [target] = await tx<SubscriptionTarget[]>`
        SELECT s.id, s.events, s.collection, s.delivery, s.cluster_id AS "clusterId", c.owner_id AS "ownerId", s.url, s.secret,
          s.previous_secret AS "previousSecret", s.previous_secret_expires_at AS "previousSecretExpiresAt"
        FROM webhook_subscriptions s JOIN clusters c ON c.id = s.cluster_id
        WHERE s.cluster_id = ${clusterId} AND s.id = ${subscriptionId} FOR KEY SHARE OF s`;
      if (!target) return null;
      const now = new Date().toISOString();
      const rows = testEventRows(clusterId, target, event, now);
      // Not leased to this instance's worker: due now, and NOTIFY wakes the workers of every instance.
      await this.outbox.insert(tx, clusterId, rows, now, undefined);
      const [record] = await tx.unsafe<DeliveryRecord[]>(
        `SELECT ${RECORD} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id = $1`,
        [rows.deliveries[0]!.id],
      );
      return { record: record!, captured: capturedOf(rows, [target], false) };
    });
    if (!made) return null;
    this.outbox.signal.committed(made.captured);
    return made.record;
  }

  async stream(subscriptionId: string, after: StreamedEvent['cursor'], limit: number) {
    const rows = await this.sql.unsafe<
      {
        createdAt: string;
        id: string;
        eventId: string;
        eventType: StreamedEvent['eventType'];
        body: string;
      }[]
    >(
      `SELECT d.created_at AS "createdAt", d.id, d.event_id AS "eventId", e.type AS "eventType", e.body
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE d.subscription_id = $1 AND (d.created_at, d.id) > ($2, $3)
       ORDER BY d.created_at, d.id LIMIT $4`,
      [subscriptionId, after.createdAt, after.id, limit] as never[],
    );
    return rows.map((row) => ({
      cursor: { createdAt: row.createdAt, id: row.id },
      eventId: row.eventId,
      eventType: row.eventType,
      body: row.body,
    }));
  }
  async streamCursors(subscriptionId: string, after: StreamedEvent['cursor'], limit: number) {
    const rows = await this.sql.unsafe<{ createdAt: string; id: string; eventId: string }[]>(
      `SELECT created_at AS "createdAt", id, event_id AS "eventId" FROM webhook_deliveries
       WHERE subscription_id = $1 AND (created_at, id) > ($2, $3) ORDER BY created_at, id LIMIT $4`,
      [subscriptionId, after.createdAt, after.id, limit] as never[],
    );
    return rows.map((row) => ({ cursor: { createdAt: row.createdAt, id: row.id }, eventId: row.eventId }));
  }

  async purgeFinished(before: string): Promise<number> {
    return this.sql.begin(async (tx) => {
      const removed = await tx`
        DELETE FROM webhook_deliveries WHERE status IN ('succeeded', 'failed', 'streamed') AND created_at < ${before}`;
      await tx`
        DELETE FROM webhook_events e WHERE e.created_at < ${before}
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`;
      return removed.count;
    });
  }

  async cursorOf(subscriptionId: string, eventId: string) {
    const [row] = await this.sql<{ createdAt: string; id: string }[]>`
      SELECT created_at AS "createdAt", id FROM webhook_deliveries
      WHERE subscription_id = ${subscriptionId} AND event_id = ${eventId}`;
    return row ?? null;
  }

  onCaptured(listener: () => void): () => void {
    return this.outbox.subscribe(listener, 'captured');
  }

  onDue(listener: () => void): () => void {
    return this.outbox.subscribe(listener, 'due');
  }

  takeCaptured(taker: CaptureTaker): () => void {
    return this.outbox.setTaker(taker);
  }
}
