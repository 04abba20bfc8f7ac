const encoder = new TextEncoder();

/** The UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Lowercase hex of some bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += HEX_DIGITS[byte];
  return hex;
}

/** Standard base64 (RFC 4648 §4) with padding. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Bytes of standard, padded base64; `null` for anything else (atob alone would accept missing padding). */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!CANONICAL_BASE64.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Whether `received` is the hex of the digest whose lowercase hex is `expected`, in time that does not depend on
 * where they differ. `received` is already known to be 64 hex digits, in either case: OR-ing 0x20 lower-cases
 * A–F and leaves digits as they are.
 */
export function hexEquals(expected: string, received: string): boolean {
  if (expected.length !== received.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++)
    difference |= expected.charCodeAt(i) ^ (received.charCodeAt(i) | 0x20);
  return difference === 0;
}

/** Whether two strings are equal, in time that depends on their length only. */
export function textEquals(expected: string, received: string): boolean {
  if (expected.length !== received.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ received.charCodeAt(i);
  return difference === 0;
}
