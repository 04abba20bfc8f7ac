import type { Sql } from 'postgres';
import type { DeviceAuthorizationRecord, DeviceAuthorizationStore } from '../device-authorizations.js';

type Row = Omit<DeviceAuthorizationRecord, 'interval'> & { interval: number | string };

/** Device sign-ins on PostgreSQL. */
export class PostgresDeviceAuthorizations implements DeviceAuthorizationStore {
  constructor(private readonly sql: Sql) {}

  async create(r: DeviceAuthorizationRecord): Promise<void> {
    await this.sql`INSERT INTO device_authorizations (device_code_hash, user_code_hash, status, user_id,
                     interval_seconds, last_polled_at, expires_at, created_at)
                   VALUES (${r.deviceCodeHash}, ${r.userCodeHash}, ${r.status}, ${r.userId}, ${r.interval},
                     ${r.lastPolledAt}, ${r.expiresAt}, ${r.createdAt})`;
  }

  async find(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null> {
    const [row] = await this.sql<Row[]>`
      SELECT device_code_hash AS "deviceCodeHash", user_code_hash AS "userCodeHash", status, user_id AS "userId",
        interval_seconds AS interval, last_polled_at AS "lastPolledAt", expires_at AS "expiresAt",
        created_at AS "createdAt"
      FROM device_authorizations WHERE device_code_hash = ${deviceCodeHash}`;
    return row ? { ...row, interval: Number(row.interval) } : null;
  }

  async decide(
    userCodeHash: string,
    decision: { status: 'approved'; userId: string } | { status: 'denied' },
    now: string,
  ): Promise<boolean> {
    const userId = decision.status === 'approved' ? decision.userId : null;
    const result = await this.sql`
      UPDATE device_authorizations SET status = ${decision.status}, user_id = ${userId}
      WHERE user_code_hash = ${userCodeHash} AND status = 'pending' AND expires_at > ${now}`;
    return result.count === 1;
  }

  async recordPoll(deviceCodeHash: string, previous: string | null, now: string, interval: number) {
    const result = await this.sql`
      UPDATE device_authorizations SET last_polled_at = ${now}, interval_seconds = ${interval}
      WHERE device_code_hash = ${deviceCodeHash} AND last_polled_at IS NOT DISTINCT FROM ${previous}`;
    return result.count === 1;
  }

  async takeApproved(deviceCodeHash: string): Promise<string | null> {
    // DELETE … RETURNING: of two polls at once, only one gets the row and so the session.
    const [row] = await this.sql<{ userId: string }[]>`
      DELETE FROM device_authorizations WHERE device_code_hash = ${deviceCodeHash} AND status = 'approved'
      RETURNING user_id AS "userId"`;
    return row?.userId ?? null;
  }

  async delete(deviceCodeHash: string): Promise<void> {
    await this.sql`DELETE FROM device_authorizations WHERE device_code_hash = ${deviceCodeHash}`;
  }

  async purge(before: string): Promise<number> {
    return (await this.sql`DELETE FROM device_authorizations WHERE expires_at < ${before}`).count;
  }
}
