import type Database from 'better-sqlite3';
import type { LinkedIdentity, PasskeyRecord, SignInFlow, SignInStore } from '../sign-in.js';

interface FlowRow {
  id: string;
  purpose: string;
  payload: string;
  expiresAt: string;
}

type PasskeyRow = Omit<PasskeyRecord, 'transports' | 'backedUp'> & { transports: string; backedUp: number };

const PASSKEY_COLUMNS = `id, user_id AS userId, name, public_key AS publicKey, counter, transports,
  device_type AS deviceType, backed_up AS backedUp, created_at AS createdAt, last_used_at AS lastUsedAt`;

function passkeyOf(row: PasskeyRow): PasskeyRecord {
  return { ...row, transports: JSON.parse(row.transports) as string[], backedUp: row.backedUp === 1 };
}

/** Sign-in flows, linked identities and passkeys on SQLite. */
export class SqliteSignIn implements SignInStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      insertFlow: db.prepare(
        'INSERT INTO sign_in_flows (id, purpose, payload, expires_at) VALUES (@id, @purpose, @payload, @expiresAt)',
      ),
      takeFlow: db.prepare<[{ id: string; purpose: string; now: string }], FlowRow>(
        `DELETE FROM sign_in_flows WHERE id = @id AND purpose = @purpose AND expires_at > @now
         RETURNING id, purpose, payload, expires_at AS expiresAt`,
      ),
      purgeFlows: db.prepare('DELETE FROM sign_in_flows WHERE expires_at < ?'),
      findIdentity: db.prepare<[string, string], { userId: string }>(
        'SELECT user_id AS userId FROM linked_identities WHERE provider = ? AND subject = ?',
      ),
      linkIdentity: db.prepare(
        `INSERT INTO linked_identities (provider, subject, user_id, email, created_at)
         VALUES (@provider, @subject, @userId, @email, @createdAt) ON CONFLICT DO NOTHING`,
      ),
      insertPasskey: db.prepare(
        `INSERT INTO passkeys (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at, last_used_at)
         VALUES (@id, @userId, @name, @publicKey, @counter, @transports, @deviceType, @backedUp, @createdAt, @lastUsedAt)`,
      ),
      findPasskey: db.prepare<[string], PasskeyRow>(`SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE id = ?`),
      listPasskeys: db.prepare<[string], PasskeyRow>(
        `SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE user_id = ? ORDER BY created_at, id`,
      ),
      usePasskey: db.prepare(
        'UPDATE passkeys SET counter = @counter, last_used_at = @now WHERE id = @id AND counter = @previous',
      ),
      deletePasskey: db.prepare('DELETE FROM passkeys WHERE id = ? AND user_id = ?'),
    };
  }

  async createFlow(flow: SignInFlow): Promise<void> {
    this.stmt.insertFlow.run({ ...flow, payload: JSON.stringify(flow.payload) });
  }

  async takeFlow(id: string, purpose: string, now: string): Promise<SignInFlow | null> {
    const row = this.stmt.takeFlow.get({ id, purpose, now });
    return row ? { ...row, payload: JSON.parse(row.payload) as Record<string, unknown> } : null;
  }

  async purgeFlows(before: string): Promise<number> {
    return this.stmt.purgeFlows.run(before).changes;
  }

  async findIdentity(provider: string, subject: string): Promise<string | null> {
    return this.stmt.findIdentity.get(provider, subject)?.userId ?? null;
  }

  async linkIdentity(identity: LinkedIdentity): Promise<void> {
    this.stmt.linkIdentity.run(identity);
  }

  async addPasskey(p: PasskeyRecord): Promise<void> {
    this.stmt.insertPasskey.run({
      ...p,
      transports: JSON.stringify(p.transports),
      backedUp: p.backedUp ? 1 : 0,
    });
  }

  async findPasskey(id: string): Promise<PasskeyRecord | null> {
    const row = this.stmt.findPasskey.get(id);
    return row ? passkeyOf(row) : null;
  }

  async listPasskeys(userId: string): Promise<PasskeyRecord[]> {
    return this.stmt.listPasskeys.all(userId).map(passkeyOf);
  }

  async usePasskey(id: string, previous: number, counter: number, now: string): Promise<boolean> {
    return this.stmt.usePasskey.run({ id, previous, counter, now }).changes === 1;
  }

  async deletePasskey(userId: string, id: string): Promise<boolean> {
    return this.stmt.deletePasskey.run(id, userId).changes === 1;
  }
}
