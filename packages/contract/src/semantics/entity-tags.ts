/**
 * Conditional requests on a document (RFC 9110, section 13.1). A document's entity tag is strong: the SHA-1 of its
 * JSON text as answered, base64url, quoted; the server hashes with node:crypto and the mocks with Web Crypto, so
 * both give the same tag for the same document. The rules for comparing the headers with it live here, once.
 */

/** The tags an If-Match or If-None-Match header lists, as sent (quotes and `W/` kept); `*` stands for any. */
export function listedEntityTags(header: string): '*' | string[] {
  if (header.trim() === '*') return '*';
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/** The quoted tag of a SHA-1 digest in base64url. */
export function entityTagOfDigest(base64url: string): string {
  return `"${base64url}"`;
}

/**
 * If-Match holds (the write may go on) when the header is `*` or lists the current tag, compared strongly: a weak
 * tag (`W/"…"`) never matches.
 */
export function ifMatchHolds(header: string, current: string): boolean {
  const tags = listedEntityTags(header);
  return tags === '*' || tags.includes(current);
}

/**
 * If-None-Match holds for a read (answer 304) when the header is `*` or lists the current tag, compared weakly:
 * `W/"x"` matches `"x"`.
 */
export function ifNoneMatchHolds(header: string, current: string): boolean {
  const tags = listedEntityTags(header);
  return tags === '*' || tags.some((tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === current);
}
