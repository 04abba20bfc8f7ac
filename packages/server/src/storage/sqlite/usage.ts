import type Database from 'better-sqlite3';
import type { KeyUsageStore, UsageQuery, UsageRecord } from '../usage.js';
import { packUsage, readUsagePage, type StoredBatch, usageTotal } from '../usage-batches.js';

/**
 * The usage history of API keys on SQLite, in batches (storage/usage-batches.ts). Nothing here changes what
 * authentication decides, so the authentication cache stays as it is.
 */
export class SqliteUsage implements KeyUsageStore {
  private readonly stmt;
  private readonly writeBatches;

  constructor(db: Database.Database) {
    const synchronous = db.pragma('synchronous', { simple: true }) as number;
    this.stmt = {
      // Prepared once: db.pragma() would compile them on every write.
      relaxSync: db.prepare('PRAGMA synchronous = NORMAL'),
      restoreSync: db.prepare(`PRAGMA synchronous = ${synchronous}`),
      keyExists: db.prepare<[string], { id: string }>('SELECT id FROM api_keys WHERE id = ?'),
      insert: db.prepare(
        `INSERT INTO api_key_usage (key_id, first_at, last_at, requests, denied, entries)
         VALUES (@keyId, @firstAt, @lastAt, @requests, @denied, @entries)`,
      ),
      touch: db.prepare(
        'UPDATE api_keys SET last_used_at = @lastAt WHERE id = @keyId AND (last_used_at IS NULL OR last_used_at < @lastAt)',
      ),
      batches: db.prepare<[string, number, number], StoredBatch>(
        `SELECT last_at AS lastAt, entries FROM api_key_usage WHERE key_id = ?
         ORDER BY last_at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      sums: db.prepare<[string], { requests: number | null; denied: number | null }>(
        'SELECT SUM(requests) AS requests, SUM(denied) AS denied FROM api_key_usage WHERE key_id = ?',
      ),
    };
    this.writeBatches = db.transaction((records: readonly UsageRecord[]) => {
      for (const batch of packUsage(records)) {
        // A key deleted since its requests were answered takes its entries with it.
        if (!this.stmt.keyExists.get(batch.keyId)) continue;
        this.stmt.insert.run(batch);
        this.stmt.touch.run(batch);
      }
    });
  }

  async record(records: readonly UsageRecord[]): Promise<void> {
    if (records.length === 0) return;
    // The history is written without waiting for the disk (synchronous=NORMAL: it survives a crash of the
    // process, not of the machine). It was only in memory until now anyway, and a sync per write would stall
    // every request behind it. Document writes keep the configured setting.
    this.stmt.relaxSync.run();
    try {
      this.writeBatches(records);
    } finally {
      this.stmt.restoreSync.run();
    }
  }

  async list(keyId: string, query: UsageQuery) {
    const sums = this.stmt.sums.get(keyId)!;
    const total = usageTotal({ requests: sums.requests ?? 0, denied: sums.denied ?? 0 }, query.outcome);
    const rows =
      total === 0
        ? []
        : await readUsagePage(async (offset, count) => this.stmt.batches.all(keyId, count, offset), query);
    return { rows, total };
  }
}
