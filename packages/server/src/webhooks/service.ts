import {
  deliveryNotFound as deliveryNotFoundRule,
  resolveTestEvent,
  streamedResendRefused,
  testEventDocuments,
  type Violation,
  WEBHOOK_SECRET_OVERLAP_MS,
  type WebhookCreate,
  type WebhookTestEvent,
  webhookNotFound,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { ApiError } from '../http/errors.js';
import { ulid } from '../ids.js';
import type { DeliveryRecord, DeliveryStatus } from '../storage/deliveries.js';
import type { Storage } from '../storage/types.js';
import type { SubscriptionRecord } from '../storage/webhooks.js';
import { isTriggerSubscription } from '../triggers/subscriptions.js';
import type { ReceiverPolicy } from './addresses.js';
import { type Clock, iso } from './clock.js';
import { generateSigningSecret, type SecretBox, signingSecrets } from './secret-box.js';

/** A subscription as the API shows it, without secrets. */
export function publicSubscription(record: SubscriptionRecord) {
  return {
    _id: record.id,
    url: record.url,
    events: record.events,
    collection: record.collection,
    delivery: record.delivery,
    active: record.active,
    createdAt: record.createdAt,
  };
}

/** A delivery as the API shows it. */
export function publicDelivery(record: DeliveryRecord) {
  const { id, ...rest } = record;
  return { _id: id, ...rest };
}

function notFound(webhookId: string): ApiError {
  return toApiError(webhookNotFound(webhookId));
}

/** The webhook routes' work, for one cluster at a time (the caller's). */
export class WebhookService {
  constructor(
    private readonly storage: Storage,
    private readonly policy: ReceiverPolicy,
    /** Null on an instance without the key of the stored secrets (see openSecretBox). */
    private readonly box: SecretBox | null,
    private readonly clock: Clock,
  ) {}

  async create(clusterId: string, input: z.output<typeof WebhookCreate>) {
    const delivery = input.delivery ?? 'http';
    // The server never posts to a stream subscription's url (a local tool forwards to it), so the address rules
    // that keep the server from reaching internal hosts have nothing to guard there.
    const refused = delivery === 'http' ? await this.policy.check(input.url) : null;
    if (refused) {
      throw new ApiError(
        'validation_error',
        `Invalid body field "url": receiver address refused: ${refused}`,
        {
          in: 'body',
          field: 'url',
        },
      );
    }
    const box = this.requireBox();
    const id = `wh_${ulid()}`;
    const secret = input.secret ?? generateSigningSecret();
    const record = {
      id,
      clusterId,
      url: input.url,
      events: [...new Set(input.events)],
      collection: input.collection ?? null,
      delivery,
      createdAt: iso(this.clock.now()),
      secret: box.seal(secret, id),
    };
    await this.storage.webhooks.create(record);
    return {
      ...publicSubscription({ ...record, active: true, previousSecret: null, previousSecretExpiresAt: null }),
      secret,
    };
  }

  async list(clusterId: string) {
    return { data: (await this.storage.webhooks.list(clusterId)).map(publicSubscription) };
  }

  async delete(clusterId: string, webhookId: string) {
    // A document trigger's hidden subscription goes with its trigger only.
    if (isTriggerSubscription(webhookId) || !(await this.storage.webhooks.delete(clusterId, webhookId)))
      throw notFound(webhookId);
    return { _id: webhookId, deleted: true as const };
  }

  async rotateSecret(clusterId: string, webhookId: string, supplied: string | undefined) {
    const box = this.requireBox();
    const secret = supplied ?? generateSigningSecret();
    const previousSecretExpiresAt = iso(this.clock.now() + WEBHOOK_SECRET_OVERLAP_MS);
    const record = await this.storage.webhooks.rotateSecret(
      clusterId,
      webhookId,
      box.seal(secret, webhookId),
      previousSecretExpiresAt,
    );
    if (!record) throw notFound(webhookId);
    return { ...publicSubscription(record), secret, previousSecretExpiresAt };
  }

  async deliveries(
    clusterId: string,
    webhookId: string,
    page: { status?: DeliveryStatus; limit: number; skip: number },
  ) {
    await this.subscription(clusterId, webhookId);
    const { rows, total } = await this.storage.deliveries.list(webhookId, page);
    return { data: rows.map(publicDelivery), total, limit: page.limit, skip: page.skip };
  }

  async attempts(clusterId: string, webhookId: string, deliveryId: string) {
    await this.subscription(clusterId, webhookId);
    const attempts = await this.storage.deliveries.attempts(webhookId, deliveryId);
    if (!attempts) throw deliveryNotFound(webhookId, deliveryId);
    return { data: attempts.map(({ id, ...rest }) => ({ _id: id, ...rest })) };
  }

  async resend(clusterId: string, webhookId: string, deliveryId: string) {
    await this.subscription(clusterId, webhookId);
    const delivery = await this.storage.deliveries.resend(webhookId, deliveryId, iso(this.clock.now()));
    if (!delivery) throw deliveryNotFound(webhookId, deliveryId);
    if (delivery.status === 'streamed') throw streamedResend(webhookId, deliveryId);
    return publicDelivery(delivery);
  }

  /**
   * Sends a test event to one subscription (see the test route): a sample event it wants, through the same
   * outbox and worker as the events of writes, to it alone. No document is written.
   */
  async test(clusterId: string, webhookId: string, input: z.output<typeof WebhookTestEvent>) {
    const subscription = await this.subscription(clusterId, webhookId);
    const resolved = resolveTestEvent(subscription, input);
    if ('code' in resolved) throw new ApiError(resolved.code, resolved.message, resolved.details);
    const documentId = `test_${ulid()}`;
    const { data, previous } = testEventDocuments(resolved.type, documentId, iso(this.clock.now()));
    const delivery = await this.storage.deliveries.createTest(clusterId, webhookId, {
      ...resolved,
      documentId,
      data: JSON.stringify(data),
      ...(previous ? { previous: JSON.stringify(previous) } : {}),
    });
    if (!delivery) throw notFound(webhookId);
    return publicDelivery(delivery);
  }

  /** The caller's subscription, or 404: one cluster never reaches another's subscriptions. */
  async subscription(clusterId: string, webhookId: string): Promise<SubscriptionRecord> {
    const record = await this.storage.webhooks.find(clusterId, webhookId);
    if (!record) throw notFound(webhookId);
    return record;
  }

  /** The secrets a delivery to this subscription is signed with now. */
  openSecrets(record: SubscriptionRecord): string[] {
    return signingSecrets(this.requireBox(), record, this.clock.now());
  }

  /** The time of the webhook clock. */
  get now(): number {
    return this.clock.now();
  }

  private requireBox(): SecretBox {
    if (this.box) return this.box;
    throw new ApiError(
      'internal_error',
      'This server instance does not hold the key that encrypts webhook secrets; see docs/deployment.md (DATAPLATFORM_ENCRYPTION_KEY)',
    );
  }
}

function streamedResend(webhookId: string, deliveryId: string): ApiError {
  return toApiError(streamedResendRefused(webhookId, deliveryId));
}

function deliveryNotFound(webhookId: string, deliveryId: string): ApiError {
  return toApiError(deliveryNotFoundRule(webhookId, deliveryId));
}

function toApiError({ code, message, details }: Violation): ApiError {
  return new ApiError(code, message, details);
}
