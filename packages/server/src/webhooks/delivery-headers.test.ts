import { verify } from '@dataplatform/webhooks/node';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders } from './delivery-headers.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OLD_SECRET = 'whsec_dGhlIG90aGVyIHNlY3JldCBvZiB0aGlydHktdHdv';
const body = '{"id":"evt_1","type":"document.created"}';

describe('deliveryHeaders', () => {
  it('gives a JSON body both signature schemes, stamped in whole seconds, which the verifier accepts', () => {
    const sentAt = Date.now();
    const headers = deliveryHeaders({
      id: 'evt_1',
      type: 'document.created',
      body,
      sentAt,
      secrets: [SECRET],
    });
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'x-webhook-id': 'evt_1',
      'x-webhook-event': 'document.created',
      'x-webhook-timestamp': String(Math.floor(sentAt / 1000)),
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(sentAt / 1000)),
    });
    expect(() => verify(body, headers, SECRET)).not.toThrow();
  });

  it('signs with both secrets during a rotation, comma- and space-separated as documented', () => {
    const headers = deliveryHeaders({
      id: 'evt_2',
      type: 'document.deleted',
      body,
      sentAt: Date.now(),
      secrets: [SECRET, OLD_SECRET],
    });
    expect(headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64},[0-9a-f]{64}$/);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => verify(body, headers, OLD_SECRET)).not.toThrow();
  });
});
