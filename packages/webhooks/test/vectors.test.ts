import { describe, expect, it } from 'vitest';
import { sign, verify, verifyAsync, WebhookVerificationError } from '../src/node.js';
import { checkVectorsAreCurrent, optionsOf, secretArgument, type Vector, vectors } from './vectors.js';

/** Runs one verification and reports its outcome in the vectors' own terms. */
async function outcome(run: () => unknown): Promise<Vector['expected']> {
  try {
    await run();
    return { valid: true };
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    expect(error.message.length).toBeGreaterThan(20);
    return { valid: false, code: error.code };
  }
}

describe('spec/webhooks/vectors.json', () => {
  it('is what spec/webhooks/generate.mjs makes', () => {
    const { status, output } = checkVectorsAreCurrent();
    expect(output).toBe('');
    expect(status).toBe(0);
  });

  it('holds the headers that sign makes, as the server sends them (hex signatures joined by a comma alone)', () => {
    const byId = (id: string) => vectors.find((vector) => vector.id === id)!;
    const lowerCased = (headers: Vector['headers']) =>
      Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const one = byId('valid-both-schemes');
    const rotation = byId('rotation-receiver-has-new-secret');
    const [newSecret, oldSecret] = [
      rotation.secrets[0]!,
      byId('rotation-receiver-has-old-secret').secrets[0]!,
    ];
    for (const [vector, secrets] of [
      [one, one.secrets],
      [rotation, [newSecret, oldSecret]],
    ] as const) {
      const headers = lowerCased(vector.headers);
      const signed = sign(vector.body, [...secrets], {
        id: headers['x-webhook-id'] as string,
        event: headers['x-webhook-event'] as string,
        timestamp: new Date(vector.now * 1000),
      });
      expect(signed, vector.id).toEqual(headers);
    }
    expect(rotation.headers['X-Webhook-Signature']).toMatch(/^[0-9a-f]{64},[0-9a-f]{64}$/);
  });

  it('covers every outcome', () => {
    const outcomes = new Set(vectors.map(({ expected }) => (expected.valid ? 'valid' : expected.code)));
    expect([...outcomes].sort()).toEqual([
      'invalid_secret',
      'invalid_signature',
      'malformed_header',
      'missing_header',
      'timestamp_in_future',
      'timestamp_too_old',
      'valid',
    ]);
    expect(new Set(vectors.map(({ id }) => id)).size).toBe(vectors.length);
  });
});

describe.each([
  ['verify (node:crypto, sync)', (v: Vector) => verify(v.body, v.headers, secretArgument(v), optionsOf(v))],
  [
    'verifyAsync (Web Crypto)',
    (v: Vector) => verifyAsync(v.body, v.headers, secretArgument(v), optionsOf(v)),
  ],
])('%s', (_, run) => {
  it.each(vectors.map((vector) => [vector.id, vector] as const))('%s', async (_, vector) => {
    expect(await outcome(() => run(vector))).toEqual(vector.expected);
  });

  it('gives the same results for the body as bytes and with the headers in a Headers object', async () => {
    for (const vector of vectors) {
      const headers = new Headers();
      for (const [name, value] of Object.entries(vector.headers)) {
        for (const each of [value].flat()) headers.append(name, each);
      }
      const asBytes = { ...vector, body: Buffer.from(vector.body, 'utf8') as unknown as string, headers };
      expect(await outcome(() => run(asBytes as unknown as Vector)), vector.id).toEqual(vector.expected);
    }
  });
});
