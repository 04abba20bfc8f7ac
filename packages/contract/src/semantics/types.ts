import type { z } from 'zod';
import type { BillingAccount, Cluster, User } from '../schemas/account.js';
import type { Deleted, ErrorBody } from '../schemas/common.js';
import type { Document as DocumentSchema } from '../schemas/document.js';
import type {
  DELIVERY_STATUSES,
  WebhookAttempt,
  WebhookCreate,
  WebhookDelivery,
  WebhookSecretRotation,
  WebhookStreamMessage,
  WebhookSubscription,
  WebhookTestEvent,
} from '../schemas/webhook.js';

/** A stored document with the caller's own fields typed as `T`. */
export type StoredDocument<T extends object = Record<string, unknown>> = T & z.infer<typeof DocumentSchema>;

/** One page of documents. */
export interface DocumentPage<T extends object = Record<string, unknown>> {
  data: StoredDocument<T>[];
  total: number;
  limit: number;
  skip: number;
}

/** The body of every error answer. */
export type ErrorResponse = z.infer<typeof ErrorBody>;
/** Answer of a DELETE. */
export type DeletedResponse = z.infer<typeof Deleted>;
/** A user account. */
export type UserRecord = z.infer<typeof User>;
/** A cluster. */
export type ClusterRecord = z.infer<typeof Cluster>;
/** A billing account. */
export type BillingAccountRecord = z.infer<typeof BillingAccount>;
/** A request to create a webhook subscription. */
export type WebhookCreateRequest = z.infer<typeof WebhookCreate>;
/** A request to send a test event to a subscription. */
export type WebhookTestRequest = z.input<typeof WebhookTestEvent>;
/** A webhook subscription. */
export type WebhookSubscriptionRecord = z.infer<typeof WebhookSubscription>;
/** Where a webhook delivery stands. */
export type WebhookDeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** The delivery of one event to one subscription. */
export type WebhookDeliveryRecord = z.infer<typeof WebhookDelivery>;
/** One attempt of a delivery. */
export type WebhookAttemptRecord = z.infer<typeof WebhookAttempt>;
/** A subscription after its secret was rotated, with the new secret. */
export type WebhookSecretRotationRecord = z.infer<typeof WebhookSecretRotation>;
/** One message of a subscription's event stream. */
export type WebhookStreamMessageRecord = z.infer<typeof WebhookStreamMessage>;
