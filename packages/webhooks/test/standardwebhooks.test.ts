import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { sign, signAsync, verify, verifyAsync, WebhookVerificationError } from '../src/node.js';
import { vectors } from './vectors.js';

// The official Standard Webhooks library, as a receiver that knows nothing of X-Webhook-* would use it.
const SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const BODY = JSON.stringify({ id: 'evt_1', type: 'document.updated', data: { name: 'Zoë 👩🏽‍💻' } });

describe('interoperability with the standardwebhooks package', () => {
  it('accepts what sign and signAsync produce, and returns the payload', async () => {
    const receiver = new Webhook(SECRET);
    for (const headers of [sign(BODY, SECRET), await signAsync(BODY, SECRET)]) {
      expect(receiver.verify(BODY, headers as Record<string, string>)).toEqual(JSON.parse(BODY));
    }
  });

  it('accepts a delivery signed during a rotation with either secret', () => {
    const oldSecret = 'whsec_9d8bUzR2kCNd0AgfjW8YbB2wBzu3RryP';
    const headers = sign(BODY, [SECRET, oldSecret]) as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(new Webhook(SECRET).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('refuses what sign produces for another body', () => {
    const headers = sign(BODY, SECRET) as Record<string, string>;
    expect(() => new Webhook(SECRET).verify(`${BODY} `, headers)).toThrow(/signature/);
  });

  it('confirms the Standard Webhooks signature of every valid vector that has one', () => {
    let confirmed = 0;
    for (const vector of vectors.filter(({ expected }) => expected.valid)) {
      const headers = vector.headers as Record<string, string | string[]>;
      const [id, timestamp, signature] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map(
        (n) => headers[n],
      );
      if (typeof id !== 'string' || typeof timestamp !== 'string' || signature === undefined) continue;
      const entries = [signature].flat().join(' ').split(' ');
      const time = new Date(Number(timestamp) * 1000);
      const made = vector.secrets.map((secret) => new Webhook(secret).sign(id, time, vector.body));
      expect(
        made.some((entry) => entries.includes(entry)),
        vector.id,
      ).toBe(true);
      confirmed++;
    }
    expect(confirmed).toBeGreaterThan(10);
  });

  it('is accepted by verify and verifyAsync when it signs', async () => {
    const sender = new Webhook(SECRET);
    const now = new Date();
    const headers = {
      'webhook-id': 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': sender.sign('msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', now, BODY),
    };
    expect(() => verify(BODY, headers, SECRET)).not.toThrow();
    await expect(verifyAsync(BODY, headers, SECRET)).resolves.toBeUndefined();
    const wrong = await verifyAsync(BODY, headers, 'whsec_9d8bUzR2kCNd0AgfjW8YbB2wBzu3RryP').catch((e) => e);
    expect(wrong).toBeInstanceOf(WebhookVerificationError);
    expect(wrong.code).toBe('invalid_signature');
  });
});
