import type { Sql } from 'postgres';

/** Schema changes in order; `schema_migrations` records which have run. Append only. */
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
    credits BIGINT NOT NULL DEFAULT 0,
    trial_expires_at TEXT,
    enterprise BOOLEAN NOT NULL DEFAULT false,
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
    scopes JSONB NOT NULL,
    secret_hash BYTEA NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    last_used_at TEXT,
    last_rotated_at TEXT
  );
  CREATE TABLE collections (
    id BIGSERIAL PRIMARY KEY,
    cluster_id TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (cluster_id, name)
  );
  -- Counts are spread over a few rows per collection so that concurrent writers do not queue on one row.
  CREATE TABLE collection_counters (
    collection_id BIGINT NOT NULL,
    shard SMALLINT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (collection_id, shard)
  );
  CREATE TABLE documents (
    collection_id BIGINT NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    data JSONB NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (collection_id, id)
  );
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
    data JSONB NOT NULL,
    created_at TEXT NOT NULL,
    read_at TEXT
  );
  CREATE INDEX notifications_by_user ON notifications (user_id, created_at DESC, id DESC);
  `,
  `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT,
    ip TEXT NOT NULL,
    user_agent TEXT
  );
  CREATE INDEX sessions_by_user ON sessions (user_id);
  CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  );
  CREATE TABLE activity_log (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    created_at TEXT NOT NULL,
    ip TEXT NOT NULL,
    user_agent TEXT,
    details JSONB NOT NULL
  );
  CREATE INDEX activity_by_user ON activity_log (user_id, created_at DESC, id DESC);
  CREATE INDEX activity_by_address ON activity_log (user_id, ip);
  CREATE TABLE ip_allowlists (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    entries JSONB NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  `
  CREATE TABLE sign_in_flows (
    id TEXT PRIMARY KEY,
    purpose TEXT NOT NULL,
    payload JSONB NOT NULL,
    expires_at TEXT NOT NULL
  );
  CREATE INDEX sign_in_flows_by_expiry ON sign_in_flows (expires_at);
  CREATE TABLE linked_identities (
    provider TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (provider, subject)
  );
  CREATE INDEX linked_identities_by_user ON linked_identities (user_id);
  CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    public_key TEXT NOT NULL,
    counter BIGINT NOT NULL,
    transports JSONB NOT NULL,
    device_type TEXT NOT NULL,
    backed_up BOOLEAN NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT
  );
  CREATE INDEX passkeys_by_user ON passkeys (user_id, created_at);
  `,
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    input TEXT NOT NULL,
    counts TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    errors TEXT NOT NULL,
    failure TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    updated_at TEXT NOT NULL,
    finished_at TEXT
  );
  CREATE INDEX jobs_by_cluster ON jobs (cluster_id, created_at DESC, id DESC);
  `,
  `
  CREATE TABLE webhook_subscriptions (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL REFERENCES clusters(id),
    url TEXT NOT NULL,
    events JSONB NOT NULL,
    collection TEXT,
    active BOOLEAN NOT NULL DEFAULT true,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_secret_expires_at TEXT,
    created_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX webhook_subscriptions_by_cluster ON webhook_subscriptions (cluster_id, created_at, id);
  CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL,
    type TEXT NOT NULL,
    collection TEXT NOT NULL,
    document_id TEXT COLLATE "C" NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    id TEXT COLLATE "C" PRIMARY KEY,
    subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
    event_id TEXT NOT NULL REFERENCES webhook_events(id),
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    retries INTEGER NOT NULL DEFAULT 0,
    manual BOOLEAN NOT NULL DEFAULT false,
    next_attempt_at TEXT COLLATE "C",
    last_attempt_at TEXT,
    last_response_status INTEGER,
    last_error TEXT,
    created_at TEXT COLLATE "C" NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
  CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id, created_at, id);
  CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
  CREATE TABLE webhook_attempts (
    id TEXT PRIMARY KEY,
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    status TEXT NOT NULL,
    response_status INTEGER,
    duration_ms INTEGER NOT NULL,
    error TEXT,
    next_attempt_at TEXT
  );
  CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, attempt);
  -- Never a key: a value that tells whether an instance holds the key the stored secrets were encrypted with.
  CREATE TABLE encryption_key_checks (
    name TEXT PRIMARY KEY,
    check_value TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  `
  CREATE TABLE robots (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    scopes JSONB NOT NULL,
    created_at TEXT NOT NULL,
    seq BIGSERIAL
  );
  CREATE INDEX robots_by_owner ON robots (owner_id, created_at);
  ALTER TABLE api_keys ADD COLUMN robot_id TEXT REFERENCES robots(id) ON DELETE CASCADE;
  -- Creation order of keys made in the same millisecond (SQLite has its rowid for this).
  ALTER TABLE api_keys ADD COLUMN seq BIGSERIAL;
  CREATE INDEX api_keys_by_owner ON api_keys (owner_id, created_at);
  CREATE INDEX api_keys_by_robot ON api_keys (robot_id);
  -- One row per key per write of the usage recorder: its requests as JSON (see storage/usage-batches.ts).
  CREATE TABLE api_key_usage (
    id BIGSERIAL PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
    first_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    requests INTEGER NOT NULL,
    denied INTEGER NOT NULL,
    entries TEXT NOT NULL
  );
  CREATE INDEX api_key_usage_by_key ON api_key_usage (key_id, last_at DESC, id DESC);
  `,
  `
  CREATE TABLE device_authorizations (
    device_code_hash TEXT PRIMARY KEY,
    user_code_hash TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
    interval_seconds INTEGER NOT NULL,
    last_polled_at TEXT,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX device_authorizations_by_expiry ON device_authorizations (expires_at);
  `,
  `
  -- How a subscription receives its events: 'http' (posted by the delivery worker) or 'stream' (only on its
  -- event stream; its deliveries are stored 'streamed', outside the worker's partial index on 'pending').
  ALTER TABLE webhook_subscriptions ADD COLUMN delivery TEXT NOT NULL DEFAULT 'http'
    CHECK (delivery IN ('http', 'stream'));
  `,
  `
  -- Until when some instance may go on trusting that a cluster has no active subscription: recorded before that
  -- answer is read, and read under the same row lock by each create of a subscription, which waits for it
  -- (storage/postgres/presence.ts).
  CREATE TABLE webhook_presence_leases (
    cluster_id TEXT PRIMARY KEY,
    absent_until TIMESTAMPTZ NOT NULL
  );
  -- Whether the cluster has an active subscription; when it seems to have none, the caller's lease is recorded
  -- first and the question asked again. Each statement of a VOLATILE function reads a fresh snapshot (READ
  -- COMMITTED), so the last one sees every create that held the lease row before the upsert got it.
  CREATE FUNCTION webhook_presence(p_cluster TEXT, p_lease_ms INTEGER) RETURNS BOOLEAN
  LANGUAGE plpgsql VOLATILE AS $$
  BEGIN
    IF EXISTS (SELECT 1 FROM webhook_subscriptions WHERE cluster_id = p_cluster AND active) THEN
      RETURN true;
    END IF;
    INSERT INTO webhook_presence_leases AS l (cluster_id, absent_until)
    VALUES (p_cluster, clock_timestamp() + p_lease_ms * interval '1 millisecond')
    ON CONFLICT (cluster_id) DO UPDATE SET absent_until = GREATEST(l.absent_until, EXCLUDED.absent_until);
    RETURN EXISTS (SELECT 1 FROM webhook_subscriptions WHERE cluster_id = p_cluster AND active);
  END
  $$;
  `,
  `
  -- Who may act on a cluster, and how (the role table of the API). Every cluster's creator is its first owner.
  CREATE TABLE cluster_members (
    cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (cluster_id, user_id)
  );
  CREATE INDEX cluster_members_by_user ON cluster_members (user_id, cluster_id);
  INSERT INTO cluster_members (cluster_id, user_id, role, created_at)
    SELECT id, owner_id, 'owner', created_at FROM clusters;
  -- E-mailed invitations: the token is kept as its hash; accepted_at makes it single use.
  CREATE TABLE cluster_invitations (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    invited_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    accepted_at TEXT
  );
  CREATE INDEX cluster_invitations_by_cluster ON cluster_invitations (cluster_id);
  `,
  `
  -- Billing: the trial's end and its notice are marked once; Stripe's customer of the account.
  ALTER TABLE billing_accounts ADD COLUMN trial_ended_at TEXT;
  ALTER TABLE billing_accounts ADD COLUMN trial_notified_at TEXT;
  ALTER TABLE billing_accounts ADD COLUMN stripe_customer_id TEXT;
  -- Billing: metered use per cluster per day. Counters are added to by every instance's batches; documents and
  -- storage are the last reading of the day. No foreign key: a deleted cluster's usage stays on its invoices.
  CREATE TABLE billing_usage_days (
    cluster_id TEXT NOT NULL,
    day TEXT NOT NULL,
    requests BIGINT NOT NULL DEFAULT 0,
    documents BIGINT NOT NULL DEFAULT 0,
    storage_bytes BIGINT NOT NULL DEFAULT 0,
    function_invocations BIGINT NOT NULL DEFAULT 0,
    webhook_deliveries BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (cluster_id, day)
  );
  -- What payg credits have paid for each month so far: the next charge takes only the difference.
  CREATE TABLE billing_charges (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    month TEXT NOT NULL,
    cents BIGINT NOT NULL,
    PRIMARY KEY (user_id, month)
  );
  -- Stripe events already applied, so that a replayed event changes nothing.
  CREATE TABLE billing_stripe_events (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    received_at TEXT NOT NULL
  );
  `,
  `
  -- Billing: every plan an account had, so that the invoice of a past month bills the plans in force then. An
  -- account made before this history starts with the plan it has now, from its creation on.
  CREATE TABLE billing_plan_changes (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    plan TEXT NOT NULL,
    changed_at TEXT NOT NULL
  );
  CREATE INDEX billing_plan_changes_by_user ON billing_plan_changes (user_id, changed_at, id);
  INSERT INTO billing_plan_changes (user_id, plan, changed_at)
    SELECT b.user_id, b.plan, u.created_at FROM billing_accounts b JOIN users u ON u.id = b.user_id;
  -- The Stripe subscription that pays for the plan now: events about an older one change nothing.
  ALTER TABLE billing_accounts ADD COLUMN stripe_subscription_id TEXT;
  `,
  `
  -- Functions: the current version's code and limits; a deploy bumps version. Invocations are the run history.
  CREATE TABLE functions (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    code TEXT NOT NULL,
    env JSONB NOT NULL,
    timeout_ms INTEGER NOT NULL,
    memory_mb INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    seq BIGSERIAL,
    UNIQUE (cluster_id, name)
  );
  CREATE TABLE function_invocations (
    id TEXT PRIMARY KEY,
    function_id TEXT NOT NULL REFERENCES functions(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    started_by TEXT NOT NULL,
    duration_ms DOUBLE PRECISION NOT NULL,
    started_at TEXT NOT NULL,
    logs JSONB NOT NULL,
    error JSONB,
    seq BIGSERIAL
  );
  CREATE INDEX function_invocations_by_function ON function_invocations (function_id, started_at);
  `,
  `
  -- Triggers: what fires them (source) and what they run (target), as JSON. A schedule's next tick is next_run_at;
  -- instances claim a tick by moving it on in one compare-and-set, so exactly one of them runs each tick.
  CREATE TABLE triggers (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    source JSONB NOT NULL,
    target JSONB NOT NULL,
    active BOOLEAN NOT NULL,
    created_at TEXT NOT NULL,
    last_run_at TEXT,
    next_run_at TEXT,
    seq BIGSERIAL
  );
  CREATE INDEX triggers_by_cluster ON triggers (cluster_id, created_at);
  CREATE INDEX triggers_due ON triggers (next_run_at) WHERE next_run_at IS NOT NULL;
  CREATE TABLE trigger_runs (
    id TEXT PRIMARY KEY,
    trigger_id TEXT NOT NULL REFERENCES triggers(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    started_at TEXT NOT NULL,
    duration_ms DOUBLE PRECISION,
    event JSONB,
    error TEXT,
    seq BIGSERIAL
  );
  CREATE INDEX trigger_runs_by_trigger ON trigger_runs (trigger_id, started_at);
  `,
  `
  -- Claims of document triggers' deliveries look for an earlier pending one of the same subscription
  -- (storage/outbox.ts, WAITS_FOR_NO_EARLIER): only pending ones are indexed, so the look stays short.
  CREATE INDEX webhook_deliveries_pending_by_subscription ON webhook_deliveries (subscription_id, id)
    WHERE status = 'pending';
  `,
  `
  -- Billing: the Stripe time of the last payment event applied; Stripe delivers events out of order, and an older
  -- one must not undo a newer one (an earlier failure arriving after the payment).
  ALTER TABLE billing_accounts ADD COLUMN stripe_payment_event_at BIGINT;
  `,
  `
  -- Schema: a JSON Schema per cluster and collection that writes are checked against (level strict), or kept
  -- unused (off).
  CREATE TABLE collection_validators (
    cluster_id TEXT NOT NULL,
    collection TEXT NOT NULL,
    schema TEXT NOT NULL,
    level TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (cluster_id, collection)
  );
  -- Indexes of collections: each stands for one index of the engine (engine_name) over the documents table,
  -- partial on the collection's row.
  CREATE TABLE collection_indexes (
    cluster_id TEXT NOT NULL,
    collection TEXT NOT NULL,
    name TEXT NOT NULL,
    engine_name TEXT NOT NULL UNIQUE,
    fields TEXT NOT NULL,
    is_unique BOOLEAN NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (cluster_id, collection, name)
  );
  `,
  `
  -- Jobs of every kind: units done out of a total (JSON), and what a finished job produced (JSON).
  ALTER TABLE jobs ADD COLUMN progress TEXT;
  ALTER TABLE jobs ADD COLUMN result TEXT;
  `,
  `
  -- Settings of an account (/api/settings); a missing row or a null column is the default.
  CREATE TABLE user_settings (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    timezone TEXT,
    session_lifetime_hours INTEGER,
    default_cluster_id TEXT,
    updated_at TEXT NOT NULL
  );
  `,
  `
  -- The request log (/api/logs/requests): every answered request, kept DATAPLATFORM_LOG_RETENTION_DAYS days.
  -- No foreign keys: entries outlive the keys, users and clusters they name until they expire.
  -- id is not indexed: entries are found by request id, user, cluster or time, and one index fewer is a cheaper insert.
  CREATE TABLE request_logs (
    id TEXT NOT NULL,
    at BIGINT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER NOT NULL,
    duration_ms DOUBLE PRECISION NOT NULL,
    key_id TEXT,
    user_id TEXT,
    cluster_id TEXT,
    ip TEXT NOT NULL,
    user_agent TEXT,
    request_id TEXT NOT NULL
  );
  CREATE INDEX request_logs_by_cluster ON request_logs (cluster_id, at DESC);
  CREATE INDEX request_logs_by_user ON request_logs (user_id, at DESC);
  CREATE INDEX request_logs_by_request ON request_logs (request_id);
  CREATE INDEX request_logs_by_time ON request_logs (at);
  `,
  `
  -- Request metrics (/api/metrics): per cluster and per key ('' for all its keys together), in minute, hour and
  -- day buckets; each flush adds to all three, so they roll up as they are written. sketch: an HDR histogram.
  CREATE TABLE metric_buckets (
    cluster_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    interval TEXT NOT NULL,
    t BIGINT NOT NULL,
    requests BIGINT NOT NULL,
    errors BIGINT NOT NULL,
    bytes_in BIGINT NOT NULL,
    bytes_out BIGINT NOT NULL,
    sketch TEXT,
    PRIMARY KEY (cluster_id, key_id, interval, t)
  );
  CREATE INDEX metric_buckets_by_time ON metric_buckets (interval, t);
  `,
  `
  -- Backups: one archive file per backup under the data directory (backups/<id>.ndjson.gz), written by a job.
  CREATE TABLE backups (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    completed_at TEXT,
    document_count BIGINT NOT NULL DEFAULT 0,
    size_bytes BIGINT NOT NULL DEFAULT 0,
    checksum TEXT
  );
  CREATE INDEX backups_by_cluster ON backups (cluster_id, created_at);
  `,
  `
  -- Notifications: a title, body and link per notification; the notices of before are renamed to the kinds of
  -- API.md. Preferences per user and kind (no row: the kind's default). A key's expiry is told once.
  ALTER TABLE notifications ADD COLUMN title TEXT NOT NULL DEFAULT '';
  ALTER TABLE notifications ADD COLUMN link TEXT;
  UPDATE notifications SET kind = 'account_locked', title = 'Sign-in locked' WHERE kind = 'signin.locked';
  UPDATE notifications SET kind = 'webhook_failing', title = 'Webhook failing' WHERE kind = 'webhook.delivery_failed';
  UPDATE notifications SET kind = 'webhook_disabled', title = 'Webhook disabled' WHERE kind = 'webhook.disabled';
  CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;
  CREATE TABLE notification_preferences (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    in_app BOOLEAN NOT NULL,
    email BOOLEAN NOT NULL,
    PRIMARY KEY (user_id, kind)
  );
  ALTER TABLE api_keys ADD COLUMN expiry_noticed_at TEXT;
  `,
  `
  -- Backup schedules, one per cluster; a tick is claimed by moving next_run_at on (as triggers' are).
  CREATE TABLE backup_schedules (
    cluster_id TEXT PRIMARY KEY,
    cron TEXT NOT NULL,
    retain INTEGER NOT NULL,
    next_run_at TEXT,
    last_run_at TEXT
  );
  CREATE INDEX backup_schedules_due ON backup_schedules (next_run_at) WHERE next_run_at IS NOT NULL;
  `,
  `
  -- The intelligence engine: datasets (snapshots of collections, their rows copied here) and trained models.
  CREATE TABLE intelligence_datasets (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX intelligence_datasets_by_cluster ON intelligence_datasets (cluster_id, created_at);
  CREATE TABLE intelligence_dataset_rows (
    dataset_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (dataset_id, n)
  );
  CREATE TABLE intelligence_models (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL,
    artifact TEXT
  );
  CREATE INDEX intelligence_models_by_cluster ON intelligence_models (cluster_id, created_at);
  `,
];
// Any constant shared by every instance: the advisory lock that lets one instance migrate at a time.
const MIGRATION_LOCK = 7_320_114_001;

/** Brings the schema up to date; safe when several instances start at once (they take turns on an advisory lock). */
export async function migrate(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`;
    const [row] = await tx<
      { version: number | null }[]
    >`SELECT max(version) AS version FROM schema_migrations`;
    for (let version = row?.version ?? 0; version < MIGRATIONS.length; version++) {
      await tx.unsafe(MIGRATIONS[version]!);
      await tx`INSERT INTO schema_migrations (version) VALUES (${version + 1})`;
    }
  });
}
