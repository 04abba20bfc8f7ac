import type { CollectionQuery, SortKey } from '@dataplatform/contract';
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

/** Rate-limit tiers (API.md). */
export type RateTier = 'free' | 'starter' | 'pro' | 'enterprise';

/** A stored API key, as needed to check a presented secret. */
export interface StoredKey extends KeyPrincipal {
  secretHash: Buffer;
}

/** A new API key to store. */
export interface NewKey {
  id: string;
  clusterId: string;
  ownerId: string;
  name: string;
  scopes: string[];
  secretHash: Buffer;
  createdAt: string;
  expiresAt: string | null;
}

/** API keys. */
export interface KeyStore {
  /** The key with this id together with its cluster and the owner's tier, or null. */
  findForAuth(keyId: string): Promise<StoredKey | null>;
  create(key: NewKey): Promise<void>;
  /** Pauses or resumes a key. */
  setStatus(keyId: string, status: 'active' | 'paused'): Promise<void>;
}

/** A new account: a user, their billing account and their default cluster. */
export interface NewAccount {
  user: { id: string; email: string; name: string; passwordHash: string; createdAt: string };
  billing: { id: string; plan: string; trialExpiresAt: string | null; enterprise: boolean };
  cluster: { id: string; name: string; region: string; tier: string };
}

/** Users, billing accounts and clusters. */
export interface AccountStore {
  /** Creates the account; `email_taken` when a user already has that e-mail (nothing is created then). */
  create(account: NewAccount): Promise<'created' | 'email_taken'>;
  countUsers(): Promise<number>;
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

/** What a collection query found: rows as JSON text (documents or projected objects), or the number of matches. */
export type QueryResult = { rows: string[] } | { count: number };

/**
 * Runs the SQL helper's collection queries. Every value of the query (literals, parameters, field paths, keys)
 * is bound as a parameter of the engine's statement; the statement's text is the engine's own.
 */
export interface QueryStore {
  run(ref: CollectionRef, query: CollectionQuery): Promise<QueryResult>;
}

/** The one interface the server talks to; one implementation per engine. */
export interface Storage {
  readonly engine: 'sqlite' | 'postgres';
  readonly documents: DocumentStore;
  readonly idempotency: IdempotencyStore;
  readonly keys: KeyStore;
  readonly accounts: AccountStore;
  readonly tasks: TaskStore;
  readonly queries: QueryStore;
  readonly notifications: NotificationStore;
  /** Webhook subscriptions. */
  readonly webhooks: WebhookStore;
  /** Webhook deliveries (written by document writes through the outbox) and their attempts. */
  readonly deliveries: DeliveryStore;
  /** Cheap round trip to the database, for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
