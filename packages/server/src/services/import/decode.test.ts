import { describe, expect, it } from 'vitest';
import { utf8Checked } from './decode.js';
import { SourceError } from './rows.js';

async function check(chunks: Buffer[]): Promise<Buffer> {
  const passed: Buffer[] = [];
  async function* source() {
    yield* chunks;
  }
  for await (const chunk of utf8Checked(source())) passed.push(chunk);
  return Buffer.concat(passed);
}

/** Every way of cutting `bytes` into two chunks. */
function splits(bytes: Buffer): Buffer[][] {
  return Array.from({ length: bytes.length + 1 }, (_, at) => [bytes.subarray(0, at), bytes.subarray(at)]);
}

describe('utf8Checked', () => {
  const text = Buffer.from('a,é\n€,😀\nend', 'utf8');

  it('passes UTF-8 text through unchanged however it is cut into chunks', async () => {
    for (const chunks of splits(text)) expect(await check(chunks)).toEqual(text);
    expect(await check([...text].map((byte) => Buffer.from([byte])))).toEqual(text);
  });

  it.each([
    ['a Latin-1 byte', Buffer.from([0x61, 0x0a, 0xe9, 0x0a])],
    ['a truncated sequence at the end', Buffer.from([0x61, 0xe2, 0x82])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
  ])('refuses %s however it is cut', async (_name, bytes) => {
    for (const chunks of splits(bytes)) {
      await expect(check(chunks)).rejects.toBeInstanceOf(SourceError);
    }
    await expect(check([bytes])).rejects.toMatchObject({ code: 'invalid_utf8' });
  });
});
