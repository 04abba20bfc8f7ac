import type Database from 'better-sqlite3';
import type { IdempotencyRecord, IdempotencyRecordInput, IdempotencyStore } from '../idempotency.js';
import type { GroupCommit } from './group-commit.js';

/** Answers recorded under Idempotency-Keys, on SQLite. */
export class SqliteIdempotency implements IdempotencyStore {
  private readonly stmt;

  constructor(
    db: Database.Database,
    private readonly group: GroupCommit,
  ) {
    this.stmt = {
      find: db.prepare<[string, string, string], IdempotencyRecord>(
        'SELECT fingerprint, status, body, created_at AS createdAt FROM idempotency_keys WHERE cluster_id = ? AND key = ? AND created_at >= ?',
      ),
      expire: db.prepare('DELETE FROM idempotency_keys WHERE cluster_id = ? AND key = ? AND created_at < ?'),
      purge: db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?'),
      insert: db.prepare(
        'INSERT INTO idempotency_keys (cluster_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
    };
  }

  /**
   * A found record is a replayed acknowledgement, so it is handed out only once durable: a record committed by a
   * group whose sync still runs waits for it (group-commit.ts).
   */
  async find(clusterId: string, key: string, notBefore: string): Promise<IdempotencyRecord | null> {
    const found = this.stmt.find.get(clusterId, key, notBefore);
    if (!found) return null;
    await this.group.durable();
    return found;
  }

  async purgeExpired(before: string): Promise<number> {
    return this.stmt.purge.run(before).changes;
  }

  /** Records an answer; false when another request recorded this key first. Call inside the write's transaction. */
  record(clusterId: string, input: IdempotencyRecordInput, body: string): boolean {
    this.stmt.expire.run(clusterId, input.key, input.expiredBefore);
    const now = new Date().toISOString();
    return (
      this.stmt.insert.run(clusterId, input.key, input.fingerprint, input.status, body, now).changes === 1
    );
  }
}
