import type Database from 'better-sqlite3';
import type { KeyUsageStore, UsageEntry, UsageOutcome } from '../types.js';

type Row = Omit<UsageEntry, 'keyId'>;

const COLUMNS = 'method, path, outcome, status, at AS timestamp, ip, user_agent AS userAgent';

/** The usage history of API keys on SQLite. Nothing here changes what authentication decides: no cache to empty. */
export class SqliteUsage implements KeyUsageStore {
  private readonly stmt;
  private readonly recordAll;

  constructor(db: Database.Database) {
    this.stmt = {
      keyExists: db.prepare<[string], { id: string }>('SELECT id FROM api_keys WHERE id = ?'),
      insert: db.prepare(
        'INSERT INTO api_key_usage (key_id, method, path, outcome, status, at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      touch: db.prepare(
        'UPDATE api_keys SET last_used_at = @at WHERE id = @keyId AND (last_used_at IS NULL OR last_used_at < @at)',
      ),
      page: db.prepare<[string, number, number], Row>(
        `SELECT ${COLUMNS} FROM api_key_usage WHERE key_id = ? ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      pageByOutcome: db.prepare<[string, string, number, number], Row>(
        `SELECT ${COLUMNS} FROM api_key_usage WHERE key_id = ? AND outcome = ? ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      count: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM api_key_usage WHERE key_id = ?'),
      countByOutcome: db.prepare<[string, string], { n: number }>(
        'SELECT COUNT(*) AS n FROM api_key_usage WHERE key_id = ? AND outcome = ?',
      ),
    };
    this.recordAll = db.transaction((entries: readonly UsageEntry[]) => {
      const latest = new Map<string, string>();
      for (const entry of entries) {
        const seen = latest.get(entry.keyId);
        if (seen === undefined || seen < entry.timestamp) latest.set(entry.keyId, entry.timestamp);
      }
      // A key deleted since its requests were answered takes its entries with it.
      for (const keyId of latest.keys()) if (!this.stmt.keyExists.get(keyId)) latest.delete(keyId);
      for (const e of entries) {
        if (!latest.has(e.keyId)) continue;
        this.stmt.insert.run(e.keyId, e.method, e.path, e.outcome, e.status, e.timestamp, e.ip, e.userAgent);
      }
      for (const [keyId, at] of latest) this.stmt.touch.run({ at, keyId });
    });
  }

  async record(entries: readonly UsageEntry[]): Promise<void> {
    if (entries.length > 0) this.recordAll(entries);
  }

  async list(keyId: string, query: { outcome?: UsageOutcome | undefined; limit: number; skip: number }) {
    if (query.outcome === undefined) {
      return {
        rows: this.stmt.page.all(keyId, query.limit, query.skip),
        total: this.stmt.count.get(keyId)!.n,
      };
    }
    return {
      rows: this.stmt.pageByOutcome.all(keyId, query.outcome, query.limit, query.skip),
      total: this.stmt.countByOutcome.get(keyId, query.outcome)!.n,
    };
  }
}
