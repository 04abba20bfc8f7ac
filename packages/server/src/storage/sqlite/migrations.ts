import type Database from 'better-sqlite3';

/** Schema changes in order; `PRAGMA user_version` records how many have run. Append only. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE billing_accounts (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL UNIQUE REFERENCES users(id),
    plan TEXT NOT NULL,
    credits INTEGER NOT NULL DEFAULT 0,
    trial_expires_at TEXT,
    enterprise INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'active'
  );
  CREATE TABLE clusters (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    region TEXT NOT NULL,
    tier TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL REFERENCES clusters(id),
    owner_id TEXT NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    secret_hash BLOB NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    last_used_at TEXT,
    last_rotated_at TEXT
  );
  CREATE TABLE collections (
    id INTEGER PRIMARY KEY,
    cluster_id TEXT NOT NULL,
    name TEXT NOT NULL,
    doc_count INTEGER NOT NULL DEFAULT 0,
    UNIQUE (cluster_id, name)
  );
  CREATE TABLE documents (
    collection_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX documents_by_id ON documents (collection_id, id);
  CREATE INDEX documents_by_created ON documents (collection_id, created_at, id);
  CREATE INDEX documents_by_updated ON documents (collection_id, updated_at, id);
  CREATE TABLE idempotency_keys (
    cluster_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (cluster_id, key)
  );
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
  `,
  `
  CREATE TABLE scheduled_tasks (
    name TEXT PRIMARY KEY,
    next_run_at TEXT NOT NULL
  );
  `,
  `
  CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL,
    read_at TEXT
  );
  CREATE INDEX notifications_by_user ON notifications (user_id, created_at DESC, id DESC);
  `,
  `
  CREATE TABLE robots (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX robots_by_owner ON robots (owner_id, created_at);
  ALTER TABLE api_keys ADD COLUMN robot_id TEXT REFERENCES robots(id) ON DELETE CASCADE;
  CREATE INDEX api_keys_by_owner ON api_keys (owner_id, created_at);
  CREATE INDEX api_keys_by_robot ON api_keys (robot_id);
  -- One row per key per write of the usage recorder: its requests as JSON (see storage/usage-batches.ts).
  CREATE TABLE api_key_usage (
    id INTEGER PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
    first_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    requests INTEGER NOT NULL,
    denied INTEGER NOT NULL,
    entries TEXT NOT NULL
  );
  CREATE INDEX api_key_usage_by_key ON api_key_usage (key_id, last_at, id);
  `,
];

/** Brings the database schema up to date inside one transaction. */
export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current >= MIGRATIONS.length) return;
  db.transaction(() => {
    for (let version = current; version < MIGRATIONS.length; version++) db.exec(MIGRATIONS[version]!);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
