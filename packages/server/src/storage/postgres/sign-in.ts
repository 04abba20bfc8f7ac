import type { Sql } from 'postgres';
import type { LinkedIdentity, PasskeyRecord, SignInFlow, SignInStore } from '../sign-in.js';

type PasskeyRow = Omit<PasskeyRecord, 'counter'> & { counter: string | number };

function passkeyOf(row: PasskeyRow): PasskeyRecord {
  return { ...row, counter: Number(row.counter) };
}

/** Sign-in flows, linked identities and passkeys on PostgreSQL. */
export class PostgresSignIn implements SignInStore {
  constructor(private readonly sql: Sql) {}

  async createFlow(f: SignInFlow): Promise<void> {
    await this.sql`INSERT INTO sign_in_flows (id, purpose, payload, expires_at)
                   VALUES (${f.id}, ${f.purpose}, ${this.sql.json(f.payload as never)}, ${f.expiresAt})`;
  }

  async takeFlow(id: string, purpose: string, now: string): Promise<SignInFlow | null> {
    // DELETE … RETURNING: of two requests with the same flow, only one gets the row.
    const [row] = await this.sql<SignInFlow[]>`
      DELETE FROM sign_in_flows WHERE id = ${id} AND purpose = ${purpose} AND expires_at > ${now}
      RETURNING id, purpose, payload, expires_at AS "expiresAt"`;
    return row ?? null;
  }

  async purgeFlows(before: string): Promise<number> {
    return (await this.sql`DELETE FROM sign_in_flows WHERE expires_at < ${before}`).count;
  }

  async findIdentity(provider: string, subject: string): Promise<string | null> {
    const [row] = await this.sql<{ userId: string }[]>`
      SELECT user_id AS "userId" FROM linked_identities WHERE provider = ${provider} AND subject = ${subject}`;
    return row?.userId ?? null;
  }

  async linkIdentity(i: LinkedIdentity): Promise<void> {
    await this.sql`INSERT INTO linked_identities (provider, subject, user_id, email, created_at)
                   VALUES (${i.provider}, ${i.subject}, ${i.userId}, ${i.email}, ${i.createdAt})
                   ON CONFLICT DO NOTHING`;
  }

  async addPasskey(p: PasskeyRecord): Promise<void> {
    await this.sql`INSERT INTO passkeys
      (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at, last_used_at)
      VALUES (${p.id}, ${p.userId}, ${p.name}, ${p.publicKey}, ${p.counter}, ${this.sql.json(p.transports)},
              ${p.deviceType}, ${p.backedUp}, ${p.createdAt}, ${p.lastUsedAt})`;
  }

  async findPasskey(id: string): Promise<PasskeyRecord | null> {
    const [row] = await this.sql<PasskeyRow[]>`SELECT ${this.columns()} FROM passkeys WHERE id = ${id}`;
    return row ? passkeyOf(row) : null;
  }

  async listPasskeys(userId: string): Promise<PasskeyRecord[]> {
    const rows = await this.sql<PasskeyRow[]>`
      SELECT ${this.columns()} FROM passkeys WHERE user_id = ${userId} ORDER BY created_at, id`;
    return rows.map(passkeyOf);
  }

  async usePasskey(id: string, previous: number, counter: number, now: string): Promise<boolean> {
    const result = await this.sql`UPDATE passkeys SET counter = ${counter}, last_used_at = ${now}
      WHERE id = ${id} AND counter = ${previous}`;
    return result.count === 1;
  }

  async deletePasskey(userId: string, id: string): Promise<boolean> {
    return (await this.sql`DELETE FROM passkeys WHERE id = ${id} AND user_id = ${userId}`).count === 1;
  }

  private columns() {
    return this.sql`id, user_id AS "userId", name, public_key AS "publicKey", counter, transports,
      device_type AS "deviceType", backed_up AS "backedUp", created_at AS "createdAt", last_used_at AS "lastUsedAt"`;
  }
}
