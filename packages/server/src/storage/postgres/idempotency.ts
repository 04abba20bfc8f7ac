import type { Sql, TransactionSql } from 'postgres';
import type { IdempotencyRecord, IdempotencyRecordInput, IdempotencyStore } from '../idempotency.js';

/** Answers recorded under Idempotency-Keys, on PostgreSQL. */
export class PostgresIdempotency implements IdempotencyStore {
  constructor(private readonly sql: Sql) {}

  async find(clusterId: string, key: string, notBefore: string): Promise<IdempotencyRecord | null> {
    const [row] = await this.sql<IdempotencyRecord[]>`
      SELECT fingerprint, status, body, created_at AS "createdAt" FROM idempotency_keys
      WHERE cluster_id = ${clusterId} AND key = ${key} AND created_at >= ${notBefore}`;
    return row ?? null;
  }

  async purgeExpired(before: string): Promise<number> {
    return (await this.sql`DELETE FROM idempotency_keys WHERE created_at < ${before}`).count;
  }

  /** Records an answer inside the write's transaction; false when another request recorded this key first. */
  async record(
    tx: TransactionSql,
    clusterId: string,
    input: IdempotencyRecordInput,
    body: string,
  ): Promise<boolean> {
    await tx`DELETE FROM idempotency_keys WHERE cluster_id = ${clusterId} AND key = ${input.key} AND created_at < ${input.expiredBefore}`;
    const inserted = await tx`
      INSERT INTO idempotency_keys (cluster_id, key, fingerprint, status, body, created_at)
      VALUES (${clusterId}, ${input.key}, ${input.fingerprint}, ${input.status}, ${body}, ${new Date().toISOString()})
      ON CONFLICT DO NOTHING`;
    return inserted.count === 1;
  }
}
