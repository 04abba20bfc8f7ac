import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { HEADER, sign, signAsync, verify, verifyAsync } from '../src/node.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OLD_SECRET = 'whsec_9d8bUzR2kCNd0AgfjW8YbB2wBzu3RryP';
const BODY = '{"id":"evt_1","type":"document.deleted","data":null}';
const timestamp = new Date('2026-03-01T12:00:00.900Z');

describe('sign and signAsync', () => {
  it('give every header of a delivery, the same in both forms', async () => {
    const options = { id: 'evt_1', event: 'document.deleted', timestamp };
    const headers = sign(BODY, SECRET, options);
    expect(await signAsync(BODY, SECRET, options)).toEqual(headers);
    expect(Object.keys(headers).sort()).toEqual(Object.values(HEADER).sort());
    expect(headers).toMatchObject({
      'x-webhook-id': 'evt_1',
      'x-webhook-event': 'document.deleted',
      'x-webhook-timestamp': '1772366400',
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1772366400',
    });
    expect(headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('sign the raw body with the whole secret (hex) and id.timestamp.body with its decoded part', () => {
    const headers = sign(BODY, SECRET, { id: 'evt_1', event: 'document.deleted', timestamp });
    expect(headers['x-webhook-signature']).toBe(
      createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(BODY).digest('hex'),
    );
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    const standard = createHmac('sha256', key).update(`evt_1.1772366400.${BODY}`).digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${standard}`);
    // The official package's own signer agrees.
    expect(new Webhook(SECRET).sign('evt_1', timestamp, BODY)).toBe(headers['webhook-signature']);
  });

  it('read a base64 secret without the whsec_ prefix as the Standard Webhooks key too', () => {
    const headers = sign(BODY, 'AAAAAAAAAAAAAAAAAAAAAA==', { id: 'evt_1', timestamp });
    const standard = createHmac('sha256', Buffer.alloc(16))
      .update(`evt_1.1772366400.${BODY}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${standard}`);
    expect(sign(BODY, 'whsec_not base64!')).not.toHaveProperty('webhook-signature');
  });

  it('sign with every secret during a rotation, newest first, in the documented list formats', () => {
    const both = sign(BODY, [SECRET, OLD_SECRET], { id: 'evt_1', timestamp });
    const [newOnly, oldOnly] = [SECRET, OLD_SECRET].map((secret) =>
      sign(BODY, secret, { id: 'evt_1', timestamp }),
    );
    expect(both['x-webhook-signature']).toBe(
      `${newOnly!['x-webhook-signature']},${oldOnly!['x-webhook-signature']}`,
    );
    expect(both['webhook-signature']).toBe(
      `${newOnly!['webhook-signature']} ${oldOnly!['webhook-signature']}`,
    );
  });

  it('leave out the Standard Webhooks headers and X-Webhook-Event when they have nothing to say', () => {
    const headers = sign(BODY, 'a secret chosen by hand');
    expect(Object.keys(headers).sort()).toEqual([
      'x-webhook-id',
      'x-webhook-signature',
      'x-webhook-timestamp',
    ]);
  });

  it('make a fresh evt_ id and the current time by default, which verify accepts', async () => {
    const first = sign(BODY, SECRET);
    const second = await signAsync(BODY, SECRET);
    expect(first['x-webhook-id']).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(second['x-webhook-id']).not.toBe(first['x-webhook-id']);
    expect(Math.abs(Number(first['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(() => verify(BODY, first, SECRET)).not.toThrow();
    await expect(verifyAsync(BODY, second, SECRET)).resolves.toBeUndefined();
  });

  it('refuse options that would make an unverifiable delivery', () => {
    expect(() => sign(BODY, SECRET, { timestamp: new Date(Number.NaN) })).toThrow(TypeError);
    expect(() => sign(BODY, SECRET, { id: '' })).toThrow(TypeError);
    expect(() => sign(BODY, [])).toThrow(TypeError);
  });
});
