import type Database from 'better-sqlite3';
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
import type { SqliteOutbox } from './outbox.js';
import { relaxed, synchronousOf } from './relaxed.js';
import type { SqliteSubscriptionCache } from './webhooks.js';

const RECORD = `d.id, d.subscription_id AS webhookId, d.event_id AS eventId, e.type AS eventType,
  e.collection, e.document_id AS documentId, d.status, d.attempts, d.created_at AS createdAt,
  d.last_attempt_at AS lastAttemptAt, d.next_attempt_at AS nextAttemptAt,
  d.last_response_status AS lastResponseStatus, d.last_error AS lastError`;

const ATTEMPT = `id, delivery_id AS deliveryId, attempt, started_at AS startedAt, status,
  response_status AS responseStatus, duration_ms AS durationMs, error, next_attempt_at AS nextAttemptAt`;

type ClaimRow = Omit<ClaimedDelivery, 'manual'> & { manual: number };

/** Deliveries and attempts on SQLite. One process writes, so a claim is a plain update in a transaction. */
export class SqliteDeliveries implements DeliveryStore {
  private readonly stmt;
  private readonly claimTx;
  private readonly finishTx;
  private readonly testTx;

  constructor(
    private readonly db: Database.Database,
    private readonly outbox: SqliteOutbox,
    private readonly subscriptions: SqliteSubscriptionCache,
  ) {
    const synchronous = synchronousOf(db);
    this.stmt = {
      // A paused cluster's deliveries wait, due, until it runs again: held, not lost.
      due: db.prepare<[string, number], { id: string }>(
        `SELECT d.id FROM webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at <= ?
           AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s JOIN clusters c ON c.id = s.cluster_id
                           WHERE s.id = d.subscription_id AND c.status <> 'running')
           AND ${WAITS_FOR_NO_EARLIER}
         ORDER BY d.next_attempt_at LIMIT ?`,
      ),
      lease: db.prepare('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?'),
      claimed: db.prepare<[string], ClaimRow>(
        `SELECT d.id, d.subscription_id AS subscriptionId, s.cluster_id AS clusterId, c.owner_id AS ownerId,
           d.event_id AS eventId, e.type AS eventType, e.body, s.url, s.secret,
           s.previous_secret AS previousSecret, s.previous_secret_expires_at AS previousSecretExpiresAt,
           d.attempts, d.retries, d.manual
         FROM webhook_deliveries d
         JOIN webhook_events e ON e.id = d.event_id
         JOIN webhook_subscriptions s ON s.id = d.subscription_id
         JOIN clusters c ON c.id = s.cluster_id
         WHERE d.id = ?`,
      ),
      attempt: db.prepare(
        `INSERT INTO webhook_attempts
           (id, delivery_id, attempt, started_at, status, response_status, duration_ms, error, next_attempt_at)
         SELECT @attemptId, id, attempts + 1, @startedAt, @outcome, @responseStatus, @durationMs, @error, @nextAttemptAt
         FROM webhook_deliveries WHERE id = @deliveryId`,
      ),
      settle: db.prepare(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = @startedAt,
           last_response_status = @responseStatus, last_error = @error, status = @status,
           next_attempt_at = @nextAttemptAt, retries = @retries, manual = 0
         WHERE id = @deliveryId`,
      ),
      clusterOf: db.prepare<[string], { clusterId: string }>(
        'SELECT cluster_id AS clusterId FROM webhook_subscriptions WHERE id = ?',
      ),
      deactivate: db.prepare('UPDATE webhook_subscriptions SET active = 0 WHERE id = ?'),
      failPending: db.prepare(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = ?
         WHERE subscription_id = ? AND status = 'pending'`,
      ),
      page: db.prepare<[string, string | null, string | null, number, number], DeliveryRecord>(
        `SELECT ${RECORD} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE d.subscription_id = ? AND (? IS NULL OR d.status = ?)
         ORDER BY d.created_at DESC, d.id DESC LIMIT ? OFFSET ?`,
      ),
      count: db.prepare<[string, string | null, string | null], { n: number }>(
        `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE subscription_id = ? AND (? IS NULL OR status = ?)`,
      ),
      owned: db.prepare<[string, string], { id: string }>(
        'SELECT id FROM webhook_deliveries WHERE id = ? AND subscription_id = ?',
      ),
      attempts: db.prepare<[string], AttemptRecord>(
        `SELECT ${ATTEMPT} FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt`,
      ),
      // A finished delivery gets one manual attempt; a pending one only comes due now; a streamed one is never
      // posted, so it stays as it is.
      resend: db.prepare(
        `UPDATE webhook_deliveries SET manual = CASE WHEN status = 'pending' THEN manual ELSE 1 END,
           status = 'pending', next_attempt_at = ?
         WHERE id = ? AND subscription_id = ? AND status <> 'streamed'`,
      ),
      record: db.prepare<[string], DeliveryRecord>(
        `SELECT ${RECORD} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id = ?`,
      ),
      ownRecord: db.prepare<[string, string], DeliveryRecord>(
        `SELECT ${RECORD} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE d.id = ? AND d.subscription_id = ?`,
      ),
      stream: db.prepare<
        [string, string, string, number],
        {
          createdAt: string;
          id: string;
          eventId: string;
          eventType: StreamedEvent['eventType'];
          body: string;
        }
      >(
        `SELECT d.created_at AS createdAt, d.id, d.event_id AS eventId, e.type AS eventType, e.body
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE d.subscription_id = ? AND (d.created_at, d.id) > (?, ?)
         ORDER BY d.created_at, d.id LIMIT ?`,
      ),
      streamCursors: db.prepare<
        [string, string, string, number],
        { createdAt: string; id: string; eventId: string }
      >(
        `SELECT created_at AS createdAt, id, event_id AS eventId FROM webhook_deliveries
         WHERE subscription_id = ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`,
      ),
      purgeDeliveries: db.prepare(
        `DELETE FROM webhook_deliveries WHERE status IN ('succeeded', 'failed', 'streamed') AND created_at < ?`,
      ),
      purgeEvents: db.prepare(
        `DELETE FROM webhook_events WHERE created_at < ?
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
      ),
      target: db.prepare<[string, string], Omit<SubscriptionTarget, 'events'> & { events: string }>(
        `SELECT s.id, s.events, s.collection, s.delivery, s.cluster_id AS clusterId, c.owner_id AS ownerId, s.url, s.secret,
           s.previous_secret AS previousSecret, s.previous_secret_expires_at AS previousSecretExpiresAt
         FROM webhook_subscriptions s JOIN clusters c ON c.id = s.cluster_id
         WHERE s.cluster_id = ? AND s.id = ?`,
      ),
      cursorOf: db.prepare<[string, string], { createdAt: string; id: string }>(
        `SELECT created_at AS createdAt, id FROM webhook_deliveries WHERE subscription_id = ? AND event_id = ?`,
      ),
    };
    const claim = db.transaction((now: string, leaseUntil: string, limit: number) => {
      const rows: ClaimRow[] = [];
      for (const { id } of this.stmt.due.all(now, limit)) {
        this.stmt.lease.run(leaseUntil, id);
        rows.push(this.stmt.claimed.get(id)!);
      }
      return rows;
    });
    this.claimTx = relaxed(db, claim, synchronous);
    const finish = db.transaction((params: Record<string, unknown>, disable: FinishedAttempt['disable']) => {
      if (disable) {
        const owner = this.stmt.clusterOf.get(disable.subscriptionId);
        if (owner) this.subscriptions.invalidate(owner.clusterId);
        this.stmt.deactivate.run(disable.subscriptionId);
        this.stmt.failPending.run(disable.reason, disable.subscriptionId);
      }
      this.stmt.attempt.run(params);
      this.stmt.settle.run(params);
    });
    this.finishTx = relaxed(db, finish, synchronous);
    // Committed as configured, like the events of document writes: an acknowledged test event is kept.
    this.testTx = db.transaction((clusterId: string, subscriptionId: string, event: TestEvent) => {
      const row = this.stmt.target.get(clusterId, subscriptionId);
      if (!row) return null;
      const target = { ...row, events: JSON.parse(row.events) as string[] };
      const rows = testEventRows(clusterId, target, event, new Date().toISOString());
      this.outbox.insert(rows);
      return {
        record: this.stmt.record.get(rows.deliveries[0]!.id)!,
        // Not leased to this process's worker: due now, so the worker claims it as it claims a re-send.
        captured: capturedOf(rows, [target], false),
      };
    });
  }

  async claim(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    return this.claimTx(now, leaseUntil, limit).map((row) => ({ ...row, manual: row.manual === 1 }));
  }

  async finish(attempt: FinishedAttempt): Promise<void> {
    this.finishTx(
      {
        attemptId: attempt.attemptId,
        deliveryId: attempt.deliveryId,
        startedAt: attempt.startedAt,
        outcome: attempt.succeeded ? 'succeeded' : 'failed',
        responseStatus: attempt.responseStatus,
        durationMs: attempt.durationMs,
        error: attempt.error,
        nextAttemptAt: attempt.next.nextAttemptAt,
        status: attempt.next.status,
        retries: attempt.next.retries,
      },
      attempt.disable,
    );
  }

  async list(subscriptionId: string, page: { status?: DeliveryStatus; limit: number; skip: number }) {
    const status = page.status ?? null;
    return {
      rows: this.stmt.page.all(subscriptionId, status, status, page.limit, page.skip),
      total: this.stmt.count.get(subscriptionId, status, status)!.n,
    };
  }

  async attempts(subscriptionId: string, deliveryId: string): Promise<AttemptRecord[] | null> {
    if (!this.stmt.owned.get(deliveryId, subscriptionId)) return null;
    return this.stmt.attempts.all(deliveryId);
  }

  async resend(subscriptionId: string, deliveryId: string, now: string): Promise<DeliveryRecord | null> {
    if (this.stmt.resend.run(now, deliveryId, subscriptionId).changes === 0) {
      return this.stmt.ownRecord.get(deliveryId, subscriptionId) ?? null;
    }
    this.outbox.signal.due();
    return this.stmt.record.get(deliveryId) ?? null;
  }

  async createTest(
    clusterId: string,
    subscriptionId: string,
    event: TestEvent,
  ): Promise<DeliveryRecord | null> {
    const made = this.testTx.immediate(clusterId, subscriptionId, event);
    if (!made) return null;
    this.outbox.signal.committed(made.captured);
    return made.record;
  }

  async stream(subscriptionId: string, after: StreamedEvent['cursor'], limit: number) {
    return this.stmt.stream.all(subscriptionId, after.createdAt, after.id, limit).map((row) => ({
      cursor: { createdAt: row.createdAt, id: row.id },
      eventId: row.eventId,
      eventType: row.eventType,
      body: row.body,
    }));
  }

  async streamCursors(subscriptionId: string, after: StreamedEvent['cursor'], limit: number) {
    return this.stmt.streamCursors
      .all(subscriptionId, after.createdAt, after.id, limit)
      .map((row) => ({ cursor: { createdAt: row.createdAt, id: row.id }, eventId: row.eventId }));
  }

  async purgeFinished(before: string): Promise<number> {
    const purge = this.db.transaction(() => {
      const removed = this.stmt.purgeDeliveries.run(before).changes;
      this.stmt.purgeEvents.run(before);
      return removed;
    });
    return purge.immediate();
  }

  async cursorOf(subscriptionId: string, eventId: string) {
    return this.stmt.cursorOf.get(subscriptionId, eventId) ?? null;
  }

  onCaptured(listener: () => void): () => void {
    return this.outbox.signal.subscribe(listener);
  }

  onDue(listener: () => void): () => void {
    return this.outbox.signal.subscribeDue(listener);
  }

  takeCaptured(taker: CaptureTaker): () => void {
    return this.outbox.signal.setTaker(taker);
  }
}
