import { describe, expect, it } from 'vitest';
import { sign, verify, verifyAsync, WebhookVerificationError } from '../src/node.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const BODY = '{"id":"evt_1","note":"Zoë 👩🏽‍💻"}';
const signed = sign(BODY, SECRET);

/** Both forms, so that every input shape is checked in each. */
const forms = [
  ['verify', (...args: Parameters<typeof verify>) => verify(...args)],
  ['verifyAsync', (...args: Parameters<typeof verifyAsync>) => verifyAsync(...args)],
] as const;

async function codeOf(run: () => unknown): Promise<string> {
  try {
    await run();
    return 'valid';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    return (error as Error).name;
  }
}

describe.each(forms)('%s', (_, run) => {
  it('takes the body as a string, Buffer, Uint8Array, ArrayBuffer or DataView', async () => {
    const bytes = Buffer.from(BODY);
    // A view into the middle of a larger buffer, as Node's pooled Buffers are.
    const pooled = Buffer.concat([Buffer.from('xxxx'), bytes, Buffer.from('yyyy')]).subarray(
      4,
      4 + bytes.length,
    );
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    for (const body of [BODY, bytes, pooled, new Uint8Array(bytes), arrayBuffer, new DataView(arrayBuffer)]) {
      expect(await codeOf(() => run(body, signed, SECRET))).toBe('valid');
    }
  });

  it('refuses a parsed body with a TypeError that explains why', async () => {
    const parsed = JSON.parse(BODY) as unknown as string;
    await expect(async () => run(parsed, signed, SECRET)).rejects.toThrow(/raw request body.*parsed as JSON/);
  });

  it('reads headers from a Headers object, Node-style arrays, or names in any case', async () => {
    const upper = Object.fromEntries(
      Object.entries(signed).map(([name, value]) => [name.toUpperCase(), value]),
    );
    const arrays = Object.fromEntries(Object.entries(signed).map(([name, value]) => [name, [value!]]));
    for (const headers of [new Headers(signed as Record<string, string>), upper, arrays]) {
      expect(await codeOf(() => run(BODY, headers, SECRET))).toBe('valid');
    }
  });

  it('refuses a single-valued header repeated with different values', async () => {
    const headers = { ...signed, 'webhook-timestamp': [signed['webhook-timestamp']!, '1'] };
    expect(await codeOf(() => run(BODY, headers, SECRET))).toBe('malformed_header');
  });

  it('treats empty headers as absent', async () => {
    const headers = { ...signed, 'x-webhook-signature': '', 'webhook-signature': ' ' };
    expect(await codeOf(() => run(BODY, headers, SECRET))).toBe('missing_header');
  });

  it('checks timestamps against the clock by default, and not at all with an infinite tolerance', async () => {
    const old = sign(BODY, SECRET, { timestamp: new Date(Date.now() - 301_000) });
    expect(await codeOf(() => run(BODY, old, SECRET))).toBe('timestamp_too_old');
    expect(await codeOf(() => run(BODY, old, SECRET, { toleranceSeconds: 400 }))).toBe('valid');
    const ancient = sign(BODY, SECRET, { timestamp: new Date(0) });
    expect(await codeOf(() => run(BODY, ancient, SECRET, { toleranceSeconds: Infinity }))).toBe('valid');
  });

  it('says which header failed, and why, in the error', async () => {
    const error = await Promise.resolve()
      .then(() => run(`${BODY} `, signed, [SECRET, 'whsec_9d8bUzR2kCNd0AgfjW8YbB2wBzu3RryP']))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({
      name: 'WebhookVerificationError',
      code: 'invalid_signature',
      header: 'x-webhook-signature',
    });
    expect((error as Error).message).toMatch(/none of the 2 secrets.*raw/);
  });

  it('refuses wrong options and secrets with a TypeError', async () => {
    for (const [secret, options] of [
      [SECRET, { toleranceSeconds: -1 }],
      [SECRET, { toleranceSeconds: Number.NaN }],
      [SECRET, { now: new Date('never') }],
      ['', {}],
      [[], {}],
      [[SECRET, 42], {}],
    ] as const) {
      expect(await codeOf(() => run(BODY, signed, secret as string, options))).toBe('TypeError');
    }
  });
});
