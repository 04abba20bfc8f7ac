import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signDelivery, standardKey } from './signing.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = '{"id":"evt_1","type":"document.created"}';

describe('signDelivery', () => {
  it('signs the raw body with the secret string (hex) and id.timestamp.body with the decoded key (Standard Webhooks)', () => {
    const headers = signDelivery({
      id: 'evt_1',
      type: 'document.created',
      body,
      timestamp: 1_700_000_000,
      secrets: [SECRET],
    });
    expect(headers).toMatchObject({
      'x-webhook-id': 'evt_1',
      'x-webhook-event': 'document.created',
      'x-webhook-timestamp': '1700000000',
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1700000000',
    });
    expect(headers['x-webhook-signature']).toBe(
      createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(body).digest('hex'),
    );
    const key = Buffer.from(SECRET.slice(6), 'base64');
    const expected = createHmac('sha256', key).update(`evt_1.1700000000.${body}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    // The official package's own signer agrees.
    expect(new Webhook(SECRET).sign('evt_1', new Date(1_700_000_000_000), body)).toBe(
      headers['webhook-signature'],
    );
  });

  it('carries one signature per secret during a rotation, comma- and space-separated', () => {
    const other = 'whsec_dGhlIG90aGVyIHNlY3JldCBvZiB0aGlydHktdHdv';
    const headers = signDelivery({
      id: 'evt_2',
      type: 'document.deleted',
      body,
      timestamp: 1,
      secrets: [SECRET, other],
    });
    expect(headers['x-webhook-signature']!.split(',')).toEqual([
      createHmac('sha256', SECRET).update(body).digest('hex'),
      createHmac('sha256', other).update(body).digest('hex'),
    ]);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(headers['webhook-signature']!.split(' ').every((part) => part.startsWith('v1,'))).toBe(true);
  });

  it('leaves the Standard Webhooks headers out when the secret is not base64', () => {
    const headers = signDelivery({
      id: 'evt_3',
      type: 'document.updated',
      body,
      timestamp: 1,
      secrets: ['plain secret, not base64'],
    });
    expect(headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(headers).not.toHaveProperty('webhook-signature');
    expect(headers).not.toHaveProperty('webhook-id');
  });
});

describe('standardKey', () => {
  it('decodes the part after whsec_, or a whole base64 secret, and refuses anything else', () => {
    expect(standardKey('whsec_AAAA')).toEqual(Buffer.from([0, 0, 0]));
    expect(standardKey('AAAAAAAAAAAAAAAAAAAAAA==')).toHaveLength(16);
    expect(standardKey('whsec_')).toBeNull();
    expect(standardKey('whsec_not base64!')).toBeNull();
    expect(standardKey('abc')).toBeNull();
  });
});
