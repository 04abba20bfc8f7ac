import type Database from 'better-sqlite3';
import type { NewSubscription, SubscriptionRecord, SubscriptionTarget, WebhookStore } from '../webhooks.js';

interface Row {
  id: string;
  clusterId: string;
  url: string;
  events: string;
  collection: string | null;
  delivery: SubscriptionRecord['delivery'];
  active: number;
  createdAt: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

const COLUMNS = `id, cluster_id AS clusterId, url, events, collection, delivery, active, created_at AS createdAt, secret,
  previous_secret AS previousSecret, previous_secret_expires_at AS previousSecretExpiresAt`;

function toRecord(row: Row): SubscriptionRecord {
  return { ...row, events: JSON.parse(row.events) as string[], active: row.active === 1 };
}

/**
 * The active subscriptions of each cluster, as every write asks for them. Exact because SQLite has one writer,
 * this process: every change of a subscription goes through this engine and forgets the cluster's entry
 * first. A cluster without subscriptions costs a write one map lookup.
 */
export class SqliteSubscriptionCache {
  private readonly entries = new Map<string, SubscriptionTarget[]>();
  private readonly activeStmt;

  constructor(db: Database.Database) {
    this.activeStmt = db.prepare<[string], Omit<SubscriptionTarget, 'events'> & { events: string }>(
      `SELECT s.id, s.events, s.collection, s.delivery, s.cluster_id AS clusterId, c.owner_id AS ownerId, s.url, s.secret,
         s.previous_secret AS previousSecret, s.previous_secret_expires_at AS previousSecretExpiresAt
       FROM webhook_subscriptions s JOIN clusters c ON c.id = s.cluster_id
       WHERE s.cluster_id = ? AND s.active = 1`,
    );
  }

  /** The cluster's active subscriptions. */
  active(clusterId: string): SubscriptionTarget[] {
    let entry = this.entries.get(clusterId);
    if (!entry) {
      entry = this.activeStmt
        .all(clusterId)
        .map((row) => ({ ...row, events: JSON.parse(row.events) as string[] }));
      // Bounded like the key cache: past the limit the oldest entry goes.
      if (this.entries.size >= 10_000) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(clusterId, entry);
    }
    return entry;
  }

  /** Forgets a cluster's entry; call before any change of its subscriptions. */
  invalidate(clusterId: string): void {
    this.entries.delete(clusterId);
  }
}

/**
 * The hidden subscriptions of document triggers (triggers/subscriptions.ts) and of collection change streams
 * (changes/subscriptions.ts) are no webhooks of the API.
 */
const NOT_TRIGGER = "url NOT LIKE 'trigger:%' AND url NOT LIKE 'changes:%'";

/** Webhook subscriptions on SQLite. */
export class SqliteWebhooks implements WebhookStore {
  private readonly stmt;

  constructor(
    db: Database.Database,
    private readonly cache: SqliteSubscriptionCache,
  ) {
    this.stmt = {
      insertIfAbsent: db.prepare(
        `INSERT OR IGNORE INTO webhook_subscriptions (id, cluster_id, url, events, collection, delivery, secret, created_at)
         VALUES (@id, @clusterId, @url, @events, @collection, @delivery, @secret, @createdAt)`,
      ),
      insert: db.prepare(
        `INSERT INTO webhook_subscriptions (id, cluster_id, url, events, collection, delivery, secret, created_at)
         VALUES (@id, @clusterId, @url, @events, @collection, @delivery, @secret, @createdAt)`,
      ),
      list: db.prepare<[string], Row>(
        `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE cluster_id = ? AND ${NOT_TRIGGER} ORDER BY created_at, id`,
      ),
      find: db.prepare<[string, string], Row>(
        `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE cluster_id = ? AND id = ? AND ${NOT_TRIGGER}`,
      ),
      // Deliveries and their attempts go with it (ON DELETE CASCADE).
      remove: db.prepare('DELETE FROM webhook_subscriptions WHERE cluster_id = ? AND id = ?'),
      // The current secret becomes the previous one in the same statement, so rotations never lose one.
      rotate: db.prepare(
        `UPDATE webhook_subscriptions SET previous_secret = secret, secret = ?, previous_secret_expires_at = ?
         WHERE cluster_id = ? AND id = ? AND ${NOT_TRIGGER}`,
      ),
      seedCheck: db.prepare(
        "INSERT INTO encryption_key_checks (name, check_value, created_at) VALUES ('webhook-secrets', ?, ?) ON CONFLICT DO NOTHING",
      ),
      replaceCheck: db.prepare(
        `UPDATE encryption_key_checks SET check_value = ?
         WHERE name = 'webhook-secrets' AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions)`,
      ),
      readCheck: db.prepare<[], { value: string }>(
        "SELECT check_value AS value FROM encryption_key_checks WHERE name = 'webhook-secrets'",
      ),
    };
  }

  async create(subscription: NewSubscription): Promise<void> {
    this.cache.invalidate(subscription.clusterId);
    this.stmt.insert.run({ ...subscription, events: JSON.stringify(subscription.events) });
  }

  async ensure(subscription: NewSubscription): Promise<void> {
    this.cache.invalidate(subscription.clusterId);
    this.stmt.insertIfAbsent.run({ ...subscription, events: JSON.stringify(subscription.events) });
  }

  async list(clusterId: string): Promise<SubscriptionRecord[]> {
    return this.stmt.list.all(clusterId).map(toRecord);
  }

  async find(clusterId: string, id: string): Promise<SubscriptionRecord | null> {
    const row = this.stmt.find.get(clusterId, id);
    return row ? toRecord(row) : null;
  }

  async delete(clusterId: string, id: string): Promise<boolean> {
    this.cache.invalidate(clusterId);
    return this.stmt.remove.run(clusterId, id).changes === 1;
  }

  async rotateSecret(
    clusterId: string,
    id: string,
    secret: string,
    previousSecretExpiresAt: string,
  ): Promise<SubscriptionRecord | null> {
    this.cache.invalidate(clusterId);
    this.stmt.rotate.run(secret, previousSecretExpiresAt, clusterId, id);
    return this.find(clusterId, id);
  }

  async replaceKeyCheckIfUnused(value: string): Promise<boolean> {
    return this.stmt.replaceCheck.run(value).changes === 1;
  }

  async ensureKeyCheck(value: string, now: string): Promise<string> {
    this.stmt.seedCheck.run(value, now);
    return this.stmt.readCheck.get()!.value;
  }
}
