import type { Sql } from 'postgres';
import type { KeyUsageStore, UsageQuery, UsageRecord } from '../usage.js';
import { packUsage, readUsagePage, type StoredBatch, usageTotal } from '../usage-batches.js';

/** PostgreSQL's foreign_key_violation: a key was deleted by another instance while its entries were written. */
const FOREIGN_KEY_VIOLATION = '23503';

/** The usage history of API keys on PostgreSQL, in batches (storage/usage-batches.ts). */
export class PostgresUsage implements KeyUsageStore {
  constructor(private readonly sql: Sql) {}

  async record(records: readonly UsageRecord[]): Promise<void> {
    if (records.length === 0) return;
    const batches = packUsage(records);
    try {
      await this.write(batches);
    } catch (error) {
      // The whole write rolled back; once more, now that the deleted key is gone, its batch is skipped.
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw error;
      await this.write(batches);
    }
  }

  /** One transaction: the batches of keys that still exist, then each key's `lastUsedAt`. */
  private async write(batches: ReturnType<typeof packUsage>): Promise<void> {
    const column = <K extends keyof (typeof batches)[number]>(name: K) => batches.map((batch) => batch[name]);
    await this.sql.begin(async (tx) => {
      await tx`
        INSERT INTO api_key_usage (key_id, first_at, last_at, requests, denied, entries)
        SELECT b.key_id, b.first_at, b.last_at, b.requests, b.denied, b.entries FROM unnest(
          ${column('keyId')}::text[], ${column('firstAt')}::text[], ${column('lastAt')}::text[],
          ${column('requests')}::int[], ${column('denied')}::int[], ${column('entries')}::text[]
        ) AS b(key_id, first_at, last_at, requests, denied, entries)
        WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = b.key_id)`;
      await tx`
        UPDATE api_keys k SET last_used_at = b.last_at
        FROM unnest(${column('keyId')}::text[], ${column('lastAt')}::text[]) AS b(key_id, last_at)
        WHERE k.id = b.key_id AND (k.last_used_at IS NULL OR k.last_used_at < b.last_at)`;
    });
  }

  async list(keyId: string, query: UsageQuery) {
    const [sums] = await this.sql<{ requests: number; denied: number }[]>`
      SELECT coalesce(sum(requests), 0)::int AS requests, coalesce(sum(denied), 0)::int AS denied
      FROM api_key_usage WHERE key_id = ${keyId}`;
    const total = usageTotal(sums!, query.outcome);
    const read = async (offset: number, count: number) => [
      ...(await this.sql<StoredBatch[]>`
        SELECT last_at AS "lastAt", entries FROM api_key_usage WHERE key_id = ${keyId}
        ORDER BY last_at DESC, id DESC LIMIT ${count} OFFSET ${offset}`),
    ];
    return { rows: total === 0 ? [] : await readUsagePage(read, query), total };
  }
}
