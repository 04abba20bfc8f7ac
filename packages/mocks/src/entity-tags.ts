import { entityTagOfDigest } from '@dataplatform/contract';
import { sha1 } from '@noble/hashes/legacy.js';

const UTF8 = new TextEncoder();

/**
 * The entity tag of a document answer: SHA-1 of its JSON text, base64url, quoted (contract:
 * semantics/entity-tags.ts), so the mocks tag a document as the server does. Synchronous, in browsers too, since
 * the mocks answer a write in one step.
 */
export function entityTagOf(document: unknown): string {
  const digest = sha1(UTF8.encode(JSON.stringify(document)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return entityTagOfDigest(btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
}
