import type { WebhookDeliveryMode } from '@dataplatform/contract';

/** What a subscription listens to: event kinds (or `*`) and, optionally, one collection. */
export interface SubscriptionFilter {
  id: string;
  events: readonly string[];
  collection: string | null;
}

/**
 * What the outbox needs of a subscription: what it listens to and how it receives it (a `stream` subscription's
 * deliveries are stored `streamed`, out of the worker's reach).
 */
export interface OutboxSubscription extends SubscriptionFilter {
  delivery: WebhookDeliveryMode;
}

/** What a write's capture knows of each active subscription: enough to send its deliveries at once. */
export interface SubscriptionTarget extends OutboxSubscription {
  clusterId: string;
  /** The cluster's owner, told when a delivery fails for good. */
  ownerId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

/** A stored subscription. Secrets are ciphertext here: only the webhook service can open them. */
export interface SubscriptionRecord extends OutboxSubscription {
  clusterId: string;
  url: string;
  active: boolean;
  createdAt: string;
  /** The signing secret, encrypted. */
  secret: string;
  /** The secret before the last rotation, encrypted, while it is still valid. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

/** A new subscription to store. */
export type NewSubscription = Omit<
  SubscriptionRecord,
  'previousSecret' | 'previousSecretExpiresAt' | 'active'
>;

/** Webhook subscriptions, per cluster. */
export interface WebhookStore {
  /**
   * Stores a subscription. When this resolves, every write that starts afterwards on any instance captures
   * events for it (see the presence rules of each engine).
   */
  create(subscription: NewSubscription): Promise<void>;
  /** `create`, unless a subscription of that id exists already (then nothing changes). */
  ensure(subscription: NewSubscription): Promise<void>;
  /** The cluster's subscriptions, oldest first. */
  list(clusterId: string): Promise<SubscriptionRecord[]>;
  find(clusterId: string, id: string): Promise<SubscriptionRecord | null>;
  /** Deletes a subscription with its deliveries and attempts; false when there was none. */
  delete(clusterId: string, id: string): Promise<boolean>;
  /**
   * Replaces the secret; the current one becomes the previous secret, valid until `previousSecretExpiresAt`
   * (one statement, so concurrent rotations never lose a secret). Null when there is no such subscription.
   */
  rotateSecret(
    clusterId: string,
    id: string,
    secret: string,
    previousSecretExpiresAt: string,
  ): Promise<SubscriptionRecord | null>;
  /**
   * Records the check value of the key that encrypts secrets, unless one is recorded already; returns the
   * recorded one. Lets every instance notice a key that is not the one the stored secrets were encrypted with.
   */
  ensureKeyCheck(value: string, now: string): Promise<string>;
  /**
   * Records `value` instead of the recorded check value when no subscription exists (so nothing is encrypted
   * with the old key); true when it did. Exact only with one writer: SQLite uses it, PostgreSQL never does.
   */
  replaceKeyCheckIfUnused(value: string): Promise<boolean>;
}
