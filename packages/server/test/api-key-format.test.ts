import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateApiKey, parseApiKey } from '../src/auth/api-key.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The check a secret scanner runs offline, written from docs/keys.md alone. */
function scannerAccepts(candidate: string): boolean {
  if (!/^svc_[0-9A-Za-z]{54}$/.test(candidate)) return false;
  let value = crc32(candidate.slice(0, 52));
  let checksum = '';
  for (let i = 0; i < 6; i++) {
    checksum = ALPHABET[value % 62] + checksum;
    value = Math.floor(value / 62);
  }
  return candidate.slice(52) === checksum;
}

describe('API key format', () => {
  const keys = Array.from({ length: 20 }, () => generateApiKey().secret);

  it('is svc_ + 16-character id + 32-character secret + 6-character checksum, which the documented recipe verifies', () => {
    for (const key of keys) {
      expect(key).toMatch(/^svc_[0-9A-Za-z]{54}$/);
      expect(scannerAccepts(key)).toBe(true);
      expect(parseApiKey(key)).toBe(key.slice(4, 20));
    }
  });

  it('tells a key with any one mistyped character from a real one, offline', () => {
    const key = keys[0]!;
    let typos = 0;
    for (let position = 4; position < key.length; position++) {
      for (const replacement of ALPHABET) {
        if (replacement === key[position]) continue;
        const typo = key.slice(0, position) + replacement + key.slice(position + 1);
        typos++;
        expect(parseApiKey(typo), typo).toBeNull();
        expect(scannerAccepts(typo), typo).toBe(false);
      }
    }
    expect(typos).toBe(54 * 61);
  });

  it('tells a key with two neighbouring characters swapped from a real one', () => {
    for (const key of keys) {
      for (let position = 4; position < key.length - 1; position++) {
        if (key[position] === key[position + 1]) continue;
        const swapped = key.slice(0, position) + key[position + 1] + key[position] + key.slice(position + 2);
        expect(parseApiKey(swapped), swapped).toBeNull();
      }
    }
  });

  it('keeps the key id through rotation and changes everything after it', () => {
    const first = generateApiKey();
    const rotated = generateApiKey(first.id);
    expect(rotated.secret.slice(0, 20)).toBe(first.secret.slice(0, 20));
    expect(rotated.secret.slice(20, 52)).not.toBe(first.secret.slice(20, 52));
    expect(rotated.hash.equals(first.hash)).toBe(false);
  });
});
