import type { verifyAsync } from '@dataplatform/webhooks';
import type {
  DeletedResponse,
  WebhookAttemptRecord,
  WebhookCreateRequest,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEventType,
  WebhookSecretRotationRecord,
  WebhookStreamMessageRecord,
  WebhookSubscriptionRecord,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { DataPlatformError } from '../core/error.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { EventStreamOptions, RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** A subscription as `create` answers it: with its secret, shown this once. */
export type WebhookWithSecret = WebhookSubscriptionRecord & { secret: string };

/** Query of `deliveries()`. */
export interface DeliveryListParams {
  /** Only deliveries in this state. */
  status?: WebhookDeliveryStatus;
  /** Page size, 1 to 1000 (server default 50). */
  limit?: number;
  /** Number of deliveries to skip before the first page. */
  skip?: number;
}

/** What `test()` sends: an event of this type in this collection (both default from the subscription). */
export interface WebhookTestParams {
  type?: WebhookEventType;
  collection?: string;
}

/** Options of `stream()`. */
export type WebhookStreamOptions = Omit<EventStreamOptions, 'query'>;

/** One event of a subscription's stream: its id (resume after it with `lastEventId`), type and delivery. */
export interface WebhookStreamEvent {
  /** The event id, `evt_…`. */
  id: string;
  type: WebhookEventType;
  /** The raw body and the signed headers a delivery of it carries: forward both unchanged. */
  message: WebhookStreamMessageRecord;
}

const BASE = '/api/v1/data/webhooks';

function webhookPath(webhookId: string): string {
  return `${BASE}/${segment(webhookId, 'webhook id')}`;
}

function deliveryPath(webhookId: string, deliveryId: string): string {
  return `${webhookPath(webhookId)}/deliveries/${segment(deliveryId, 'delivery id')}`;
}

/**
 * Webhook subscriptions, their deliveries and attempts, under `/api/v1/data/webhooks`.
 * @example const { _id, secret } = await client.webhooks.create({ url: 'https://example.com/hooks', events: ['*'] });
 */
export class Webhooks extends APIResource {
  /**
   * Verifies a delivery in a receiver: `await client.webhooks.verify(rawBody, headers, secret)` resolves when both
   * signature schemes present check out and throws `WebhookVerificationError` (with a `code`) otherwise. It is
   * `verifyAsync` of `@dataplatform/webhooks` (Web Crypto, every runtime), loaded on first use so that clients
   * which never verify do not carry it; that package also has a sync form for Node and the error class.
   */
  verify(...args: Parameters<typeof verifyAsync>): Promise<void> {
    return import('@dataplatform/webhooks').then(({ verifyAsync }) => verifyAsync(...args));
  }

  /**
   * Subscribes `url` to document events; the answer carries the signing secret, shown only here. With
   * `delivery: 'stream'` the server never posts to `url`: the events are only on `stream()`, to forward.
   */
  create(params: WebhookCreateRequest, options?: RequestOptions): APIPromise<WebhookWithSecret> {
    return this._client.post(BASE, { ...options, body: params });
  }

  /** Every subscription of the cluster, oldest first, without secrets. */
  list(options?: RequestOptions): APIPromise<{ data: WebhookSubscriptionRecord[] }> {
    return this._client.get(BASE, options);
  }

  /** Deletes a subscription and forgets its deliveries; NotFoundError when there is none. */
  delete(webhookId: string, options?: RequestOptions): APIPromise<DeletedResponse> {
    return this._client.delete(webhookPath(webhookId), options);
  }

  /**
   * The deliveries of a subscription, newest first: await for the first page, or `for await` for all of them.
   * @example for await (const d of client.webhooks.deliveries(id, { status: 'failed' })) console.log(d.eventId);
   */
  deliveries(
    webhookId: string,
    params: DeliveryListParams = {},
    options?: RequestOptions,
  ): PagePromise<WebhookDeliveryRecord> {
    const { status, limit, skip } = params;
    return this._client.getAPIList(`${webhookPath(webhookId)}/deliveries`, { status, limit, skip }, options);
  }

  /** Every attempt of a delivery, first to last: outcome, answer status, duration, error and next attempt. */
  attempts(
    webhookId: string,
    deliveryId: string,
    options?: RequestOptions,
  ): APIPromise<{ data: WebhookAttemptRecord[] }> {
    return this._client.get(`${deliveryPath(webhookId, deliveryId)}/attempts`, options);
  }

  /** Sends a delivery again now, with the same event id and body (one attempt for a finished delivery). */
  resend(webhookId: string, deliveryId: string, options?: RequestOptions): APIPromise<WebhookDeliveryRecord> {
    return this._client.post(`${deliveryPath(webhookId, deliveryId)}/resend`, options);
  }

  /**
   * The subscription's events as they are captured (after `lastEventId` when given), each with the body and
   * signed headers of its delivery, until the connection ends (the server also ends it for a reader that falls
   * too far behind); stop with `break` or `options.signal`. Keep the
   * last id and pass it as `lastEventId` when opening the stream again, and nothing in between is lost.
   * @example for await (const { type, message } of client.webhooks.stream(id)) await forward(message);
   */
  async *stream(
    webhookId: string,
    options: WebhookStreamOptions = {},
  ): AsyncGenerator<WebhookStreamEvent, void, undefined> {
    const events = this._client.getEventStream(`${webhookPath(webhookId)}/events`, options);
    for await (const event of events) {
      // The server's last word before it ends a stream (a reader too far behind): the caller resumes by id.
      if (event.event === 'error') return;
      let message: WebhookStreamMessageRecord;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        throw new DataPlatformError(`Could not parse event ${event.id} of the stream as JSON`, {
          cause: error,
        });
      }
      yield { id: event.id, type: event.event as WebhookEventType, message };
    }
  }

  /**
   * Sends a signed test event to this subscription alone: a sample document (`"test": true`, `documentId`
   * `test_…`) that goes out like a real event (retried, listed in `deliveries`, re-sendable, on the event stream).
   * `type` defaults to the first kind the subscription names, `collection` to its collection (or `test`); one it
   * would not get is BadRequestError `validation_error`. Answers the delivery, pending and due now.
   * @example const delivery = await client.webhooks.test(id, { type: 'document.updated' });
   */
  test(
    webhookId: string,
    params: WebhookTestParams = {},
    options?: RequestOptions,
  ): APIPromise<WebhookDeliveryRecord> {
    return this._client.post(`${webhookPath(webhookId)}/test`, { ...options, body: params });
  }

  /**
   * Replaces the signing secret (with `params.secret`, or a generated one). The old secret keeps signing for
   * 24 hours, until `previousSecretExpiresAt`, so receivers can switch without losing events.
   */
  rotateSecret(
    webhookId: string,
    params: { secret?: string } = {},
    options?: RequestOptions,
  ): APIPromise<WebhookSecretRotationRecord> {
    return this._client.post(`${webhookPath(webhookId)}/rotate-secret`, { ...options, body: params });
  }
}
