import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from 'postgres';
import type { NewSubscription, SubscriptionRecord, WebhookStore } from '../webhooks.js';
import type { SubscriptionPresence } from './presence.js';

const COLUMNS = `id, cluster_id AS "clusterId", url, events, collection, delivery, active, created_at AS "createdAt", secret,
  previous_secret AS "previousSecret", previous_secret_expires_at AS "previousSecretExpiresAt"`;

/**
 * The hidden subscriptions of document triggers (triggers/subscriptions.ts) and of collection change streams
 * (changes/subscriptions.ts) are no webhooks of the API.
 */
const NOT_TRIGGER = "url NOT LIKE 'trigger:%' AND url NOT LIKE 'changes:%'";

/** Webhook subscriptions on PostgreSQL. */
export class PostgresWebhooks implements WebhookStore {
  constructor(
    private readonly sql: Sql,
    private readonly presence: SubscriptionPresence,
  ) {}

  /**
   * Resolves once every instance's writes capture events for the new subscription: the insert takes the lock of
   * the cluster's presence lease in the same statement, and the create waits until no instance may still trust
   * an answer "no subscription" read before it (usually no wait at all; see SubscriptionPresence).
   */
  create(s: NewSubscription): Promise<void> {
    return this.insert(s, false);
  }

  ensure(s: NewSubscription): Promise<void> {
    return this.insert(s, true);
  }

  private async insert(s: NewSubscription, ifAbsent: boolean): Promise<void> {
    const [lease] = await this.sql<{ waitMs: number }[]>`
      WITH lease AS (
        INSERT INTO webhook_presence_leases AS l (cluster_id, absent_until) VALUES (${s.clusterId}, 'epoch')
        ON CONFLICT (cluster_id) DO UPDATE SET absent_until = l.absent_until
        RETURNING absent_until
      ), created AS (
        INSERT INTO webhook_subscriptions (id, cluster_id, url, events, collection, delivery, secret, created_at)
        VALUES (${s.id}, ${s.clusterId}, ${s.url}, ${this.sql.json(s.events as string[])}, ${s.collection},
                ${s.delivery}, ${s.secret}, ${s.createdAt})
        ${ifAbsent ? this.sql`ON CONFLICT (id) DO NOTHING` : this.sql``}
      )
      SELECT GREATEST(0, ceil(extract(epoch FROM absent_until - clock_timestamp()) * 1000))::integer AS "waitMs"
      FROM lease`;
    this.presence.markPresent(s.clusterId);
    if (lease!.waitMs > 0) await sleep(lease!.waitMs);
  }

  async list(clusterId: string): Promise<SubscriptionRecord[]> {
    const rows = await this.sql.unsafe<SubscriptionRecord[]>(
      `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE cluster_id = $1 AND ${NOT_TRIGGER} ORDER BY created_at, id`,
      [clusterId],
    );
    return [...rows];
  }

  async find(clusterId: string, id: string): Promise<SubscriptionRecord | null> {
    const [row] = await this.sql.unsafe<SubscriptionRecord[]>(
      `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE cluster_id = $1 AND id = $2 AND ${NOT_TRIGGER}`,
      [clusterId, id],
    );
    return row ?? null;
  }

  async delete(clusterId: string, id: string): Promise<boolean> {
    // Deliveries and their attempts go with it (ON DELETE CASCADE).
    const removed = await this
      .sql`DELETE FROM webhook_subscriptions WHERE cluster_id = ${clusterId} AND id = ${id}`;
    this.presence.forget(clusterId);
    return removed.count === 1;
  }

  async rotateSecret(
    clusterId: string,
    id: string,
    secret: string,
    previousSecretExpiresAt: string,
  ): Promise<SubscriptionRecord | null> {
    // The current secret becomes the previous one in the same statement, so rotations never lose one.
    const [row] = await this.sql.unsafe<SubscriptionRecord[]>(
      `UPDATE webhook_subscriptions SET previous_secret = secret, secret = $1, previous_secret_expires_at = $2
       WHERE cluster_id = $3 AND id = $4 AND ${NOT_TRIGGER} RETURNING ${COLUMNS}`,
      [secret, previousSecretExpiresAt, clusterId, id],
    );
    return row ?? null;
  }

  /** Never on PostgreSQL: instances starting together with different keys would take turns replacing it. */
  async replaceKeyCheckIfUnused(): Promise<boolean> {
    return false;
  }

  async ensureKeyCheck(value: string, now: string): Promise<string> {
    await this.sql`
      INSERT INTO encryption_key_checks (name, check_value, created_at) VALUES ('webhook-secrets', ${value}, ${now})
      ON CONFLICT DO NOTHING`;
    const [row] = await this.sql<{ value: string }[]>`
      SELECT check_value AS value FROM encryption_key_checks WHERE name = 'webhook-secrets'`;
    return row!.value;
  }
}
