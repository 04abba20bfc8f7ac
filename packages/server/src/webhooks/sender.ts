import { deliveryHeaders } from './delivery-headers.js';
import type { DeliveryDispatcher, PostResult } from './dispatch.js';
import { type SealedSecrets, type SecretBox, signingSecrets } from './secret-box.js';

/** A receiver: its url, and the sealed secrets of the subscription whose deliveries it gets. */
export interface Receiver extends SealedSecrets {
  url: string;
}

/** What one delivery carries: the event id (`webhook-id`), its type and the exact body signed. */
export interface OutgoingEvent {
  id: string;
  type: string;
  body: string;
}

/**
 * Signs an event with a subscription's secrets and posts it through the dispatcher (its address rules, timeout and
 * no redirects). The one way anything leaves the server for a receiver: the delivery worker's attempts and the
 * runs of triggers that target a webhook.
 */
export class DeliverySender {
  constructor(
    private readonly box: SecretBox,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  async send(receiver: Receiver, event: OutgoingEvent, sentAt: number): Promise<PostResult> {
    let headers: Record<string, string>;
    try {
      headers = deliveryHeaders({ ...event, sentAt, secrets: signingSecrets(this.box, receiver, sentAt) });
    } catch {
      return { responseStatus: null, error: 'the signing secret could not be decrypted', durationMs: 0 };
    }
    return this.dispatcher.post(receiver.url, event.body, headers);
  }
}
