import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableEngines, startTestServer, type TestServer } from './helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';
import {
  hexSignatureValid,
  standardSignatureMatches,
  standardSignatureValid,
} from './webhooks/signatures.js';

const HOUR = 3_600_000;

describe.each(availableEngines())('secret rotation on %s', (engine) => {
  let t: TestServer;
  let receiver: Receiver;
  // The webhook machinery's clock: the test moves it forward by `offset`.
  let offset = 0;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestServer({ engine, clock: { now: () => Date.now() + offset } });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
  });

  const json = async (method: string, path: string, body?: unknown) => {
    const res = await t.call(method, path, { body });
    return { status: res.status, body: await res.json() };
  };

  /**
   * Writes a document and returns the first delivery of its event. Found by its content, not its position: a jump
   * of the test's clock ends the lease of a delivery still being recorded, so another copy may arrive (at least once).
   */
  let writes = 0;
  async function deliveryOfAWrite() {
    const marker = `write-${++writes}`;
    await json('POST', '/api/v1/data/rotated', { marker });
    for (let seen = 1; ; seen++) {
      const received = await receiver.waitFor(seen);
      const delivery = received.find((entry) => entry.body.includes(`"${marker}"`));
      if (delivery) return delivery;
      seen = received.length;
    }
  }

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const created = await json('POST', '/api/v1/data/webhooks', { url: receiver.url, events: ['*'] });
    const { _id, secret: first } = created.body;

    const before = await deliveryOfAWrite();
    expect(hexSignatureValid(before, first)).toBe(true);
    expect(String(before.headers['x-webhook-signature'])).not.toContain(',');

    const rotated = await json('POST', `/api/v1/data/webhooks/${_id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const second = rotated.body.secret;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(rotated.body).toMatchObject({ _id, url: receiver.url, active: true });
    expect(Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(24 * HOUR - 60_000);

    const during = await deliveryOfAWrite();
    const hex = String(during.headers['x-webhook-signature']).split(',');
    expect(hex).toHaveLength(2);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [first, second]) {
      expect(hexSignatureValid(during, secret)).toBe(true);
      // The official package accepts a delivery that carries several signatures when any one matches.
      expect(standardSignatureValid(during, secret)).toBe(true);
    }

    offset = 24 * HOUR - 60_000;
    const late = await deliveryOfAWrite();
    for (const secret of [first, second]) {
      expect(hexSignatureValid(late, secret)).toBe(true);
      expect(standardSignatureMatches(late, secret)).toBe(true);
    }

    offset = 24 * HOUR + 1_000;
    const after = await deliveryOfAWrite();
    expect(String(after.headers['x-webhook-signature'])).not.toContain(',');
    expect(String(after.headers['webhook-signature'])).not.toContain(' ');
    expect(hexSignatureValid(after, second)).toBe(true);
    expect(standardSignatureMatches(after, second)).toBe(true);
    expect(hexSignatureValid(after, first)).toBe(false);
    expect(standardSignatureMatches(after, first)).toBe(false);
    offset = 0;
  });

  it('takes a secret of the caller’s own, refuses a bad one, and answers 404 for an unknown webhook', async () => {
    const { _id } = (
      await json('POST', '/api/v1/data/webhooks', { url: receiver.url, events: ['document.deleted'] })
    ).body;
    const own = await json('POST', `/api/v1/data/webhooks/${_id}/rotate-secret`, {
      secret: 'my-own-rotated-secret',
    });
    expect(own.status).toBe(200);
    expect(own.body.secret).toBe('my-own-rotated-secret');
    const short = await json('POST', `/api/v1/data/webhooks/${_id}/rotate-secret`, { secret: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('validation_error');
    const unknown = await json('POST', '/api/v1/data/webhooks/wh_unknown/rotate-secret', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    const list = (await json('GET', '/api/v1/data/webhooks')).body.data;
    expect(JSON.stringify(list)).not.toContain('my-own-rotated-secret');
  });
});
