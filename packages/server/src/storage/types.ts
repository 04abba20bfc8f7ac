import type { CollectionQuery, RateTier, SortKey } from '@dataplatform/contract';
import type { DeliveryStore, WebhookStore } from './webhook-types.js';

export type * from './webhook-types.js';

/** A document as the storage keeps it: system fields as columns, the caller's fields as JSON text. */
export interface DocumentRow {
  id: string;
  /** JSON text of the caller's fields (an object, without `_id`, `_createdAt`, `_updatedAt`). */
  data: string;
  createdAt: string;
  updatedAt: string;
}

/** Asks a write to record its answer under an Idempotency-Key, in the same transaction as the write. */
export interface IdempotencyRecordInput {
  key: string;
  fingerprint: string;
  status: number;
  /** Drop any record of this key older than this instant (ISO 8601) before recording. */
  expiredBefore: string;
}

/** An answer recorded under an Idempotency-Key. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  createdAt: string;
}

/** Result of a write: the answer's JSON text, or why nothing was written. */
export type WriteResult =
  | { ok: true; body: string }
  | { ok: false; reason: 'not_found' | 'conflict' | 'idempotency_race' };

/**
 * One operation of a batch, already validated, with ids, timestamps and JSON text made by the service.
 * `refused` stands for an operation the service refused (say, a bad body): it fails where it stands.
 */
export type DocumentOperation =
  | { kind: 'insert'; collection: string; row: DocumentRow }
  | { kind: 'get'; collection: string; id: string }
  | { kind: 'replace'; collection: string; id: string; data: string; updatedAt: string }
  | {
      kind: 'update';
      collection: string;
      id: string;
      /** Synchronous and free of side effects, as for `DocumentStore.update`. */
      change: (data: Record<string, unknown>) => Record<string, unknown>;
      updatedAt: string;
    }
  | { kind: 'delete'; collection: string; id: string }
  | { kind: 'refused' };

/** What one operation of a batch gave: the answer's JSON text, or why it failed. */
export type OperationResult =
  | { ok: true; body: string }
  | { ok: false; reason: 'not_found' | 'conflict' | 'refused' };

/** How `DocumentStore.apply` runs its operations. */
export interface ApplyOptions {
  /** All or nothing: stop at the first failed operation and keep nothing. Otherwise each stands on its own. */
  atomic: boolean;
  /** Records the answer under an Idempotency-Key in the same transaction (successful batches only). */
  idempotency?: IdempotencyRecordInput;
  /** The answer to record, made from the results inside the transaction. */
  answer?: (results: readonly OperationResult[]) => string;
}

/** Result of `DocumentStore.apply`. */
export type ApplyOutcome =
  | { ok: true; results: OperationResult[] }
  | { ok: false; reason: 'aborted'; index: number; result: OperationResult }
  | { ok: false; reason: 'idempotency_race' };

/** Where a document lives: a cluster and a collection. */
export interface CollectionRef {
  clusterId: string;
  collection: string;
}

/** Options of a list read. */
export interface ListOptions {
  limit: number;
  skip: number;
  sort: readonly SortKey[];
}

/** Documents in collections. Every write is atomic together with its idempotency record and its counters. */
export interface DocumentStore {
  /** One page of documents as JSON text, and the number of documents in the collection. */
  list(ref: CollectionRef, options: ListOptions): Promise<{ rows: string[]; total: number }>;
  /** One document as JSON text, or null. */
  get(ref: CollectionRef, id: string): Promise<string | null>;
  insert(ref: CollectionRef, row: DocumentRow, idempotency?: IdempotencyRecordInput): Promise<WriteResult>;
  /** Replaces the caller's fields; keeps `_id` and `_createdAt`. */
  replace(
    ref: CollectionRef,
    id: string,
    data: string,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult>;
  /**
   * Reads the caller's fields, passes them to `change` and stores what it returns, atomically.
   * `change` must be synchronous and free of side effects: an engine may call it again after a conflict.
   */
  update(
    ref: CollectionRef,
    id: string,
    change: (data: Record<string, unknown>) => Record<string, unknown>,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult>;
  delete(ref: CollectionRef, id: string, idempotency?: IdempotencyRecordInput): Promise<WriteResult>;
  /**
   * Applies operations of one cluster in order, in ONE database transaction: reads see earlier writes,
   * counters move with the documents, and the idempotent answer commits with them. When `atomic`, the first
   * failure rolls everything back and is reported as `aborted`.
   */
  apply(
    clusterId: string,
    operations: readonly DocumentOperation[],
    options: ApplyOptions,
  ): Promise<ApplyOutcome>;
}

/** Answers recorded under Idempotency-Keys, per cluster. */
export interface IdempotencyStore {
  find(clusterId: string, key: string, notBefore: string): Promise<IdempotencyRecord | null>;
  /** Removes records older than `before`; returns how many. */
  purgeExpired(before: string): Promise<number>;
}

/**
 * Periodic work that must run once per period across every server instance. An instance runs a task only
 * after claiming it in the database, so instances never repeat each other's work.
 */
export interface TaskStore {
  /** Claims `name` when it is due at `now`, making it due again at `nextRunAt`; false when not due or taken. */
  claim(name: string, now: string, nextRunAt: string): Promise<boolean>;
}

/** What a request authenticated by an API key may do. */
export interface KeyPrincipal {
  keyId: string;
  clusterId: string;
  clusterStatus: string;
  scopes: string[];
  status: 'active' | 'paused';
  expiresAt: string | null;
  /** The rate-limit tier of the owner's plan. */
  tier: RateTier;
}

/** Rate-limit tiers (API.md); the table itself lives in the contract. */
export type { RateTier };

/** A stored API key, as needed to check a presented secret. */
export interface StoredKey extends KeyPrincipal {
  secretHash: Buffer;
}

/** A new API key to store. */
export interface NewKey {
  id: string;
  clusterId: string;
  /** The user who owns the key (directly, or through the robot that owns it); the user's plan sets its tier. */
  ownerId: string;
  /** The robot that owns the key, or null for a key of the user. */
  robotId?: string | null;
  name: string;
  scopes: string[];
  secretHash: Buffer;
  createdAt: string;
  expiresAt: string | null;
}

/** Who owns keys: a user, or one of that user's robots. */
export interface KeyOwner {
  userId: string;
  /** Null: the user's own keys (not those of their robots). */
  robotId: string | null;
}

/** A stored API key as its owner sees it; `expired` is not a stored status but follows from `expiresAt`. */
export interface KeyRow {
  id: string;
  name: string;
  clusterId: string;
  scopes: string[];
  status: 'active' | 'paused';
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastRotatedAt: string | null;
}

/**
 * API keys. Every write here can change what authentication decides, so engines that cache keys for
 * authentication forget them first.
 */
export interface KeyStore {
  /** The key with this id together with its cluster and the owner's tier, or null. */
  findForAuth(keyId: string): Promise<StoredKey | null>;
  /**
   * True when `findForAuth` answers the same object for a key until something that could change the answer is
   * written (an exact cache), so that a check made against that object may be remembered (auth/key-verifier.ts).
   */
  readonly stableAuthResults: boolean;
  /** What `findForAuth` would answer, when the engine holds it in its exact cache right now; no I/O, no promise. */
  cachedForAuth?(keyId: string): StoredKey | undefined;
  create(key: NewKey): Promise<void>;
  /** Pauses or resumes a key. */
  setStatus(keyId: string, status: 'active' | 'paused'): Promise<void>;
  /** The keys of an owner, newest first. */
  list(owner: KeyOwner): Promise<KeyRow[]>;
  /** The key when it belongs to this owner, else null. */
  get(owner: KeyOwner, keyId: string): Promise<KeyRow | null>;
  /** Replaces the secret's hash; the old secret stops working at once. False when the key is gone. */
  rotate(keyId: string, secretHash: Buffer, rotatedAt: string): Promise<boolean>;
  /** Removes the key and its usage history; false when it was already gone. */
  delete(keyId: string): Promise<boolean>;
}

/** Outcome of a request in a key's usage history. */
export type UsageOutcome = 'success' | 'denied';

/** One request made with a key, as it is handed to storage. */
export interface UsageRecord {
  keyId: string;
  method: string;
  path: string;
  status: number;
  /** When it was answered, in milliseconds since the epoch. */
  at: number;
  ip: string;
  userAgent: string | null;
}

/** One request in a key's usage history, as it is listed. */
export interface UsageEntry {
  method: string;
  path: string;
  outcome: UsageOutcome;
  status: number;
  timestamp: string;
  ip: string;
  userAgent: string | null;
}

/** A page query of a key's usage history. */
export interface UsageQuery {
  outcome?: UsageOutcome | undefined;
  limit: number;
  skip: number;
}

/** The usage history of API keys. */
export interface KeyUsageStore {
  /**
   * Appends records and moves each key's `lastUsedAt` to its latest record, in one transaction. Records of keys
   * deleted meanwhile are dropped.
   */
  record(records: readonly UsageRecord[]): Promise<void>;
  /** A page of one key's entries, newest first, and the number of matching entries. */
  list(keyId: string, query: UsageQuery): Promise<{ rows: UsageEntry[]; total: number }>;
}

/** A new robot (service account). */
export interface NewRobot {
  id: string;
  ownerId: string;
  name: string;
  /** The most its keys may hold. */
  scopes: string[];
  createdAt: string;
}

/** A stored robot as its owner sees it. */
export interface RobotRow {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
}

/** Robots: named service identities owned by a user, which own API keys. */
export interface RobotStore {
  create(robot: NewRobot): Promise<void>;
  /** The robots of a user, newest first. */
  list(ownerId: string): Promise<RobotRow[]>;
  /** The robot when it belongs to this user, else null. */
  get(ownerId: string, robotId: string): Promise<RobotRow | null>;
  /** Removes the robot of this user and, in the same transaction, its keys; false when there was none. */
  delete(ownerId: string, robotId: string): Promise<boolean>;
}

/** A new account: a user, their billing account and their default cluster. */
export interface NewAccount {
  user: { id: string; email: string; name: string; passwordHash: string; createdAt: string };
  billing: { id: string; plan: string; trialExpiresAt: string | null; enterprise: boolean };
  cluster: { id: string; name: string; region: string; tier: string };
}

/** A user as the API shows them (never with the password hash). */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  createdAt: string;
}

/** A user with what sign-in needs to check a password. */
export interface UserCredentials extends UserRecord {
  passwordHash: string;
}

/** A billing account as stored. */
export interface BillingRecord {
  id: string;
  plan: string;
  credits: number;
  trialExpiresAt: string | null;
  enterprise: boolean;
  status: string;
}

/** Users, billing accounts and clusters. */
export interface AccountStore {
  /** Creates the account; `email_taken` when a user already has that e-mail (nothing is created then). */
  create(account: NewAccount): Promise<'created' | 'email_taken'>;
  countUsers(): Promise<number>;
  /** The user with this e-mail (stored lower-case), with their password hash; null when there is none. */
  findByEmail(email: string): Promise<UserCredentials | null>;
  findUser(userId: string): Promise<UserRecord | null>;
  billing(userId: string): Promise<BillingRecord | null>;
  /** Switches the user's billing account to `plan`; returns it, or null when the user has none. */
  setPlan(userId: string, plan: string): Promise<BillingRecord | null>;
  /** The IP allowlist of the user; empty when none is set. */
  ipAllowlist(userId: string): Promise<string[]>;
  setIpAllowlist(userId: string, entries: readonly string[], now: string): Promise<void>;
  /**
   * The cluster a new key of this user goes to: `clusterId` when the user owns it, the user's first cluster when
   * `clusterId` is null; null when the user owns no such cluster.
   */
  ownedCluster(userId: string, clusterId: string | null): Promise<string | null>;
}

/** A new session of a signed-in user. */
export interface NewSession {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  ip: string;
  userAgent: string | null;
}

/** A stored session. */
export interface SessionRecord {
  id: string;
  userId: string;
  expiresAt: string;
  revokedAt: string | null;
}

/** What a session token on a data route acts with: the session, the cluster, and the owner's plan. */
export interface SessionForData extends SessionRecord {
  /** The cluster asked for (or the user's default cluster) when the user owns it; null otherwise. */
  cluster: { id: string; status: string } | null;
  billing: { plan: string; trialExpiresAt: string | null; enterprise: boolean } | null;
}

/** An entry of a user's activity log. */
export interface ActivityRecord {
  id: string;
  userId: string;
  action: string;
  createdAt: string;
  ip: string;
  userAgent: string | null;
  details: Record<string, unknown>;
}

/** A password-reset completion: the token's hash, the new password hash and the entry to log, applied at once. */
export interface PasswordResetInput {
  tokenHash: string;
  passwordHash: string;
  now: string;
  activity: Omit<ActivityRecord, 'userId'>;
}

/**
 * Sessions, password-reset tokens and the activity log. A session is ended by setting `revoked_at`, so an ended
 * session's token is refused by every instance at once.
 */
export interface SessionStore {
  create(session: NewSession): Promise<void>;
  find(sessionId: string): Promise<SessionRecord | null>;
  /** The session together with the cluster a data request acts on (`clusterId`, else the default) and the plan. */
  findForData(sessionId: string, clusterId: string | null): Promise<SessionForData | null>;
  /** Ends one session of the user; true when it was still open. */
  revoke(sessionId: string, userId: string, now: string): Promise<boolean>;
  /** Ends every open session of the user; returns how many. */
  revokeAll(userId: string, now: string): Promise<number>;
  /** Stores a reset token's hash, valid until `expiresAt`. */
  createReset(reset: {
    tokenHash: string;
    userId: string;
    createdAt: string;
    expiresAt: string;
  }): Promise<void>;
  /**
   * In one transaction: uses up the reset token (unknown, used or expired: null and nothing changes), sets the
   * password, ends every session, clears the IP allowlist and logs the activity. Returns the user and the sessions ended.
   */
  completeReset(input: PasswordResetInput): Promise<{ userId: string; sessionsEnded: number } | null>;
  addActivity(entry: ActivityRecord): Promise<void>;
  listActivity(
    userId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: ActivityRecord[]; total: number }>;
  /** True when the user has signed up or signed in from this address before. */
  hasSignedInFrom(userId: string, ip: string): Promise<boolean>;
  /** Deletes sessions that expired or were ended, and reset tokens that expired, before `before`; returns how many. */
  purgeEnded(before: string): Promise<number>;
}

/** Secrets the server makes for itself and every instance must share, such as the session signing key. */
export interface ServerSecretStore {
  /** The secret called `name`; made with `make` and stored when there is none yet (the first instance wins). */
  getOrCreate(name: string, make: () => string): Promise<string>;
}

/** A message to a user from the service (a locked sign-in, a webhook that stopped delivering, …). */
export interface NewNotification {
  id: string;
  userId: string;
  /** Machine-readable kind, such as `signin.locked` or `webhook.delivery_failed`. */
  kind: string;
  message: string;
  /** Extra facts for the reader; no secrets. */
  data: Record<string, unknown>;
  createdAt: string;
}

/** A stored notification. */
export interface Notification extends Omit<NewNotification, 'userId'> {
  readAt: string | null;
}

/** Notifications of users, newest first. */
export interface NotificationStore {
  create(notification: NewNotification): Promise<void>;
  list(
    userId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: Notification[]; total: number }>;
}

/** A short-lived step of a sign-in (an OAuth authorization, a passkey challenge), used once. */
export interface SignInFlow {
  id: string;
  /** What the flow is for, such as `oauth:google` or `passkey:register`; a flow is only taken for its purpose. */
  purpose: string;
  /** The flow's facts (PKCE verifier, nonce, challenge, where to go next); no reusable secret of a user. */
  payload: Record<string, unknown>;
  expiresAt: string;
}

/** An identity at an external provider, linked to a user. */
export interface LinkedIdentity {
  provider: string;
  /** The provider's stable id of the person (`sub` of Google, the numeric id of GitHub). */
  subject: string;
  userId: string;
  email: string;
  createdAt: string;
}

/** A passkey (WebAuthn credential) of a user. */
export interface PasskeyRecord {
  /** The credential id, base64url. */
  id: string;
  userId: string;
  name: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** Signature counter last seen; 0 for authenticators that keep none. */
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Sign-in flows, external identities and passkeys. */
export interface SignInStore {
  createFlow(flow: SignInFlow): Promise<void>;
  /** Deletes and returns the flow when it exists, has this purpose and has not expired: a flow works once. */
  takeFlow(id: string, purpose: string, now: string): Promise<SignInFlow | null>;
  /** Deletes flows that expired before `before`; returns how many. */
  purgeFlows(before: string): Promise<number>;
  /** The user linked to the provider's subject, if any. */
  findIdentity(provider: string, subject: string): Promise<string | null>;
  /** Links the identity to the user; a link that exists already is kept as it is. */
  linkIdentity(identity: LinkedIdentity): Promise<void>;
  addPasskey(passkey: PasskeyRecord): Promise<void>;
  findPasskey(id: string): Promise<PasskeyRecord | null>;
  listPasskeys(userId: string): Promise<PasskeyRecord[]>;
  /**
   * Records a use: sets the counter when it is still `previousCounter` (so two uses of one assertion at once cannot
   * both pass) and the time of use. False when the counter had moved.
   */
  usePasskey(id: string, previousCounter: number, counter: number, now: string): Promise<boolean>;
  /** Deletes a passkey of the user; false when the user has none with that id. */
  deletePasskey(userId: string, id: string): Promise<boolean>;
}

/** A job as stored: background work of a cluster (imports now), its progress and outcome. */
export interface JobRecord {
  id: string;
  kind: 'import';
  status: JobStatus;
  clusterId: string;
  /** What the job was asked to do (for an import: collection, format, onError, infer). */
  input: Record<string, unknown>;
  counts: { rows: number; inserted: number; failed: number };
  bytes: number;
  /** The first rows refused, with their lines. */
  errors: { line: number; code: string; message: string }[];
  failure: { code: string; message: string } | null;
  createdAt: string;
  startedAt: string | null;
  updatedAt: string;
  finishedAt: string | null;
}

/** Where a job is. */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/**
 * Jobs of clusters. A job's worker saves it only while it is `running`, so a cancel made by any instance wins
 * over the worker's next save, and the worker learns of it from that save.
 */
export interface JobStore {
  create(job: JobRecord): Promise<void>;
  find(id: string): Promise<JobRecord | null>;
  /** Jobs of one cluster, newest first. */
  listByCluster(
    clusterId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: JobRecord[]; total: number }>;
  /** Jobs of every cluster the user owns, newest first. */
  listByOwner(
    userId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: JobRecord[]; total: number }>;
  /** Whether the user owns the job's cluster. */
  isOwnedBy(jobId: string, userId: string): Promise<boolean>;
  /** Writes the job's progress (and status, when it finishes) if it is still `running`; false when it is not. */
  save(job: JobRecord): Promise<boolean>;
  /** Sets the job `running` again, started at `now`, if it is still as `expected` (status and updatedAt) was read; false otherwise. */
  restart(id: string, expected: { status: JobStatus; updatedAt: string }, now: string): Promise<boolean>;
  /** Cancels a queued or running job; false when it had finished. */
  cancel(id: string, failure: { code: string; message: string }, now: string): Promise<boolean>;
}

/** What a collection query found: rows as JSON text (documents or projected objects), or the number of matches. */
export type QueryResult = { rows: string[] } | { count: number };

/**
 * Runs the SQL helper's collection queries. Every value of the query (literals, parameters, field paths, keys)
 * is bound as a parameter of the engine's statement; the statement's text is the engine's own.
 */
export interface QueryStore {
  run(ref: CollectionRef, query: CollectionQuery): Promise<QueryResult>;
}

/** A device sign-in (RFC 8628) waiting for, or holding, the person's decision. Both codes are kept hashed. */
export interface DeviceAuthorizationRecord {
  /** SHA-256 of the program's device code, hex. */
  deviceCodeHash: string;
  /** SHA-256 of the normalized user code (`XXXXXXXX`), hex. */
  userCodeHash: string;
  status: 'pending' | 'approved' | 'denied';
  /** Who approved; null until then. */
  userId: string | null;
  /** Seconds the program must wait between polls; grows with each `slow_down`. */
  interval: number;
  lastPolledAt: string | null;
  expiresAt: string;
  createdAt: string;
}

/** Device sign-ins: created by a program, decided by a signed-in person, handed out once. */
export interface DeviceAuthorizationStore {
  create(record: DeviceAuthorizationRecord): Promise<void>;
  /** The request with this device code, expired or not. */
  find(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null>;
  /**
   * Decides the pending, unexpired request with this user code (approved for `userId`, or denied); false when
   * there is none, so a code is decided once.
   */
  decide(
    userCodeHash: string,
    decision: { status: 'approved'; userId: string } | { status: 'denied' },
    now: string,
  ): Promise<boolean>;
  /**
   * Records a poll at `now` with `interval`, when the last poll is still `previous` (compare and set): of two
   * polls at once, one sees false and is told to slow down.
   */
  recordPoll(
    deviceCodeHash: string,
    previous: string | null,
    now: string,
    interval: number,
  ): Promise<boolean>;
  /** Deletes and returns the approving user of an approved request: its session is handed out once. */
  takeApproved(deviceCodeHash: string): Promise<string | null>;
  delete(deviceCodeHash: string): Promise<void>;
  /** Deletes requests that expired before `before`; returns how many. */
  purge(before: string): Promise<number>;
}

/** The one interface the server talks to; one implementation per engine. */
export interface Storage {
  readonly engine: 'sqlite' | 'postgres';
  readonly documents: DocumentStore;
  readonly idempotency: IdempotencyStore;
  readonly keys: KeyStore;
  readonly usage: KeyUsageStore;
  readonly robots: RobotStore;
  readonly accounts: AccountStore;
  readonly tasks: TaskStore;
  readonly queries: QueryStore;
  readonly notifications: NotificationStore;
  readonly sessions: SessionStore;
  readonly secrets: ServerSecretStore;
  readonly signIn: SignInStore;
  readonly deviceAuthorizations: DeviceAuthorizationStore;
  readonly jobs: JobStore;
  /** Webhook subscriptions. */
  readonly webhooks: WebhookStore;
  /** Webhook deliveries (written by document writes through the outbox) and their attempts. */
  readonly deliveries: DeliveryStore;
  /** Cheap round trip to the database, for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
