import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API key format: `svc_` + key id (16) + secret (32) + checksum (6), all base62.
 * The key id is not secret and finds the stored hash; the checksum (CRC32 of the first 52 characters)
 * lets a secret scanner tell a real key from random text offline.
 */
export const KEY_PREFIX = 'svc_';
const ID_LENGTH = 16;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** Length of every API key: 58 characters. */
export const KEY_LENGTH = KEY_PREFIX.length + ID_LENGTH + SECRET_LENGTH + CHECKSUM_LENGTH;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${ID_LENGTH + SECRET_LENGTH + CHECKSUM_LENGTH}}$`);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function base62Fixed(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62Fixed(crc32(body), CHECKSUM_LENGTH);
}

/** A freshly made key: the secret to show once, its id, and the hash to store. */
export interface GeneratedKey {
  id: string;
  secret: string;
  hash: Buffer;
}

/** Makes a new API key; with `id`, a new secret for that key (rotation keeps the id, so the record keeps its name). */
export function generateApiKey(id: string = randomBase62(ID_LENGTH)): GeneratedKey {
  const body = `${KEY_PREFIX}${id}${randomBase62(SECRET_LENGTH)}`;
  const secret = body + checksum(body);
  return { id, secret, hash: hashApiKey(secret) };
}

/** The key id inside a presented key, or null when it is not a well-formed key with a valid checksum. */
export function parseApiKey(presented: string): string | null {
  if (presented.length !== KEY_LENGTH || !KEY_PATTERN.test(presented)) return null;
  const body = presented.slice(0, -CHECKSUM_LENGTH);
  if (checksum(body) !== presented.slice(-CHECKSUM_LENGTH)) return null;
  return presented.slice(KEY_PREFIX.length, KEY_PREFIX.length + ID_LENGTH);
}

/** The stored form of a key. Keys carry 190 random bits, so a fast hash is enough to make a dump useless. */
export function hashApiKey(secret: string): Buffer {
  // The one-shot form: no Hash object per request, about half the cost of createHash().
  return hash('sha256', secret, 'buffer');
}

/** Constant-time comparison of a presented key against a stored hash. */
export function apiKeyMatches(presented: string, storedHash: Buffer): boolean {
  const presentedHash = hashApiKey(presented);
  return presentedHash.length === storedHash.length && timingSafeEqual(presentedHash, storedHash);
}

/** The key id inside a key of the right length and prefix, without checking its checksum. */
export function keyIdOf(presented: string): string | null {
  if (presented.length !== KEY_LENGTH || !presented.startsWith(KEY_PREFIX)) return null;
  return presented.slice(KEY_PREFIX.length, KEY_PREFIX.length + ID_LENGTH);
}

/** Compares two keys in time that depends on their length only, without leaving JavaScript. */
export function sameKey(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
