import type Database from 'better-sqlite3';
import type { DeviceAuthorizationRecord, DeviceAuthorizationStore } from '../device-authorizations.js';

const COLUMNS = `device_code_hash AS deviceCodeHash, user_code_hash AS userCodeHash, status, user_id AS userId,
  interval_seconds AS interval, last_polled_at AS lastPolledAt, expires_at AS expiresAt, created_at AS createdAt`;

/** Device sign-ins on SQLite. */
export class SqliteDeviceAuthorizations implements DeviceAuthorizationStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO device_authorizations (device_code_hash, user_code_hash, status, user_id, interval_seconds,
           last_polled_at, expires_at, created_at)
         VALUES (@deviceCodeHash, @userCodeHash, @status, @userId, @interval, @lastPolledAt, @expiresAt, @createdAt)`,
      ),
      find: db.prepare<[string], DeviceAuthorizationRecord>(
        `SELECT ${COLUMNS} FROM device_authorizations WHERE device_code_hash = ?`,
      ),
      decide: db.prepare(
        `UPDATE device_authorizations SET status = @status, user_id = @userId
         WHERE user_code_hash = @userCodeHash AND status = 'pending' AND expires_at > @now`,
      ),
      recordPoll: db.prepare(
        `UPDATE device_authorizations SET last_polled_at = @now, interval_seconds = @interval
         WHERE device_code_hash = @deviceCodeHash AND last_polled_at IS @previous`,
      ),
      takeApproved: db.prepare<[string], { userId: string }>(
        `DELETE FROM device_authorizations WHERE device_code_hash = ? AND status = 'approved'
         RETURNING user_id AS userId`,
      ),
      delete: db.prepare('DELETE FROM device_authorizations WHERE device_code_hash = ?'),
      purge: db.prepare('DELETE FROM device_authorizations WHERE expires_at < ?'),
    };
  }

  async create(record: DeviceAuthorizationRecord): Promise<void> {
    this.stmt.insert.run(record);
  }

  async find(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null> {
    return this.stmt.find.get(deviceCodeHash) ?? null;
  }

  async decide(
    userCodeHash: string,
    decision: { status: 'approved'; userId: string } | { status: 'denied' },
    now: string,
  ): Promise<boolean> {
    const userId = decision.status === 'approved' ? decision.userId : null;
    return this.stmt.decide.run({ userCodeHash, status: decision.status, userId, now }).changes === 1;
  }

  async recordPoll(deviceCodeHash: string, previous: string | null, now: string, interval: number) {
    return this.stmt.recordPoll.run({ deviceCodeHash, previous, now, interval }).changes === 1;
  }

  async takeApproved(deviceCodeHash: string): Promise<string | null> {
    return this.stmt.takeApproved.get(deviceCodeHash)?.userId ?? null;
  }

  async delete(deviceCodeHash: string): Promise<void> {
    this.stmt.delete.run(deviceCodeHash);
  }

  async purge(before: string): Promise<number> {
    return this.stmt.purge.run(before).changes;
  }
}
