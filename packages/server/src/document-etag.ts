import { hash } from 'node:crypto';
import { entityTagOfDigest, ifMatchHolds } from '@dataplatform/contract';
import { documentText } from './document-text.js';
import type { DocumentRow } from './storage/documents.js';

// A document's entity tag is the SHA-1 of its JSON text as answered (contract: semantics/entity-tags.ts), so it is
// strong by construction: the same tag means the same bytes. Nothing is stored for it.

/** The entity tag of a document answer's JSON text. */
export function entityTag(text: string): string {
  return entityTagOfDigest(hash('sha1', text, 'base64url'));
}

/** True when an operation's If-Match names none of the stored document's current tags: it must not write. */
export function preconditionFails(ifMatch: string | undefined, row: DocumentRow): boolean {
  return ifMatch !== undefined && !ifMatchHolds(ifMatch, entityTag(documentText(row)));
}
