import type { Sql } from 'postgres';
import type { KeyUsageStore, UsageEntry, UsageOutcome } from '../types.js';

/** PostgreSQL's foreign_key_violation: a key was deleted by another instance while its entries were written. */
const FOREIGN_KEY_VIOLATION = '23503';

/** The usage history of API keys on PostgreSQL. */
export class PostgresUsage implements KeyUsageStore {
  constructor(private readonly sql: Sql) {}

  async record(entries: readonly UsageEntry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await this.write(entries);
    } catch (error) {
      // The whole flush rolled back; once more, now that the deleted key is gone, its entries are skipped.
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw error;
      await this.write(entries);
    }
  }

  /** One transaction: the entries of keys that still exist (one statement, arrays unnested), then `lastUsedAt`. */
  private async write(entries: readonly UsageEntry[]): Promise<void> {
    const column = <K extends keyof UsageEntry>(name: K) => entries.map((entry) => entry[name]);
    await this.sql.begin(async (tx) => {
      await tx`
        INSERT INTO api_key_usage (key_id, method, path, outcome, status, at, ip, user_agent)
        SELECT u.key_id, u.method, u.path, u.outcome, u.status, u.at, u.ip, u.user_agent FROM unnest(
          ${column('keyId')}::text[], ${column('method')}::text[], ${column('path')}::text[],
          ${column('outcome')}::text[], ${column('status')}::int[], ${column('timestamp')}::text[],
          ${column('ip')}::text[], ${column('userAgent') as string[]}::text[]
        ) WITH ORDINALITY AS u(key_id, method, path, outcome, status, at, ip, user_agent, n)
        WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = u.key_id)
        ORDER BY u.n`;
      await tx`
        UPDATE api_keys k SET last_used_at = u.at
        FROM (SELECT key_id, max(at) AS at FROM unnest(${column('keyId')}::text[], ${column('timestamp')}::text[])
              AS e(key_id, at) GROUP BY key_id) u
        WHERE k.id = u.key_id AND (k.last_used_at IS NULL OR k.last_used_at < u.at)`;
    });
  }

  async list(keyId: string, query: { outcome?: UsageOutcome | undefined; limit: number; skip: number }) {
    const outcome = query.outcome === undefined ? this.sql`` : this.sql`AND outcome = ${query.outcome}`;
    const [rows, [count]] = await Promise.all([
      this.sql<Omit<UsageEntry, 'keyId'>[]>`
        SELECT method, path, outcome, status, at AS timestamp, ip, user_agent AS "userAgent"
        FROM api_key_usage WHERE key_id = ${keyId} ${outcome}
        ORDER BY at DESC, id DESC LIMIT ${query.limit} OFFSET ${query.skip}`,
      this.sql<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM api_key_usage WHERE key_id = ${keyId} ${outcome}`,
    ]);
    return { rows: [...rows], total: count!.n };
  }
}
