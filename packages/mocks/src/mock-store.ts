import {
  checkCollectionName,
  checkDocumentBody,
  type ImportJob,
  isJsonObject,
  type Job,
  type StoredDocument,
  type WebhookDeliveryRecord,
  type WebhookSubscriptionRecord,
} from '@dataplatform/contract';
import type { AccountModel } from './accounts.js';
import type { ChangeLog } from './change-log.js';
import type { DocumentStore } from './document-store.js';
import type { IdempotencyLedger } from './idempotency.js';
import type { JobLedger } from './imports.js';
import type { ManagedKeys } from './managed-keys.js';
import { forgetSchemas } from './schema-operations.js';
import type { WebhookStore } from './webhook-store.js';

/** The in-memory model behind the handlers, for arranging and inspecting a test. */
export interface MockStore {
  /**
   * Forgets every document, webhook subscription, recorded idempotent answer, user and session, and job; added API
   * keys stay valid.
   */
  reset(): void;
  /** Copies of the webhook subscriptions, oldest first, without secrets. */
  webhooks(): WebhookSubscriptionRecord[];
  /** Copies of a subscription's deliveries, newest first (what a write or a test event captured for it). */
  webhookDeliveries(webhookId: string): WebhookDeliveryRecord[];
  /** A copy of a collection's documents in `_id` order; `[]` for a collection never written. */
  collection(name: string): StoredDocument[];
  /**
   * Stores documents as if they had been created, and returns copies of them. `_id`, `_createdAt` and
   * `_updatedAt` are kept when given (so a test can fix them), generated otherwise. Throws on an invalid
   * collection name, a reserved field, or an id that is already taken.
   */
  seed(collection: string, docs: readonly Record<string, unknown>[]): StoredDocument[];
  /**
   * Stores a job as given (defaults: a running import), seen by key holders, or only by the user `userId` on
   * `/api/jobs`. The mocks' own imports finish within their request, so a running job to watch or cancel is seeded.
   */
  seedJob(fields?: Partial<ImportJob>, userId?: string): Job;
}

/** JSON round trip: the copy a caller gets cannot change the store, and seeds are normalised as a POST would be. */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function timestampOf(doc: Record<string, unknown>, field: '_createdAt' | '_updatedAt'): string | undefined {
  const value = doc[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
    throw new Error(`seed: ${field} must be an ISO 8601 string, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Wraps the document store, the idempotency ledger, the accounts, the jobs, the webhooks, the keys and the change log in the facade tests use. */
export function createMockStore(
  documents: DocumentStore,
  ledger: IdempotencyLedger,
  accounts: AccountModel,
  jobs: JobLedger,
  webhooks: WebhookStore,
  keys: ManagedKeys,
  changes: ChangeLog,
): MockStore {
  return {
    reset() {
      keys.clear();
      documents.clear();
      forgetSchemas(documents);
      ledger.clear();
      accounts.clear();
      jobs.clear();
      webhooks.clear();
      changes.clear();
    },
    webhooks() {
      return webhooks.list();
    },
    webhookDeliveries(webhookId) {
      return webhooks.deliveries(webhookId);
    },
    collection(name) {
      return copy(documents.list(name));
    },
    seedJob(fields = {}, userId) {
      return jobs.seed(fields, userId ?? null);
    },
    seed(collection, docs) {
      const violation = checkCollectionName(collection);
      if (violation) throw new Error(`seed: ${violation.message}`);
      return docs.map((input) => {
        const doc = copy(input);
        if (!isJsonObject(doc)) throw new Error('seed: every document must be a JSON object');
        const createdAt = timestampOf(doc, '_createdAt');
        const updatedAt = timestampOf(doc, '_updatedAt');
        const { _createdAt, _updatedAt, ...fields } = doc;
        const bodyViolation = checkDocumentBody(fields, { allowId: true });
        if (bodyViolation) throw new Error(`seed: ${bodyViolation.message}`);
        const stored = documents.insert(collection, fields, { createdAt, updatedAt });
        if (!stored) {
          throw new Error(`seed: document "${String(fields._id)}" already exists in "${collection}"`);
        }
        return copy(stored);
      });
    },
  };
}
