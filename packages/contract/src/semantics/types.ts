import type { z } from 'zod';
import type { BillingAccount, Cluster, User } from '../schemas/account.js';
import type { Deleted, ErrorBody } from '../schemas/common.js';
import type { Document as DocumentSchema } from '../schemas/document.js';
import type { WebhookCreate, WebhookSubscription } from '../schemas/webhook.js';

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
/** A webhook subscription. */
export type WebhookSubscriptionRecord = z.infer<typeof WebhookSubscription>;
