/** Response and request headers the API documents, with their meaning. */
export const HEADERS = {
  requestId: {
    name: 'X-Request-Id',
    description: 'Identifies the request; echoed from the request when supplied, generated otherwise.',
  },
  location: { name: 'Location', description: 'Address of the created resource.' },
  redirectTo: { name: 'Location', description: 'Where the browser goes next.' },
  rateLimitLimit: { name: 'RateLimit-Limit', description: 'Requests allowed per minute for this key.' },
  rateLimitRemaining: { name: 'RateLimit-Remaining', description: 'Requests left in the current window.' },
  rateLimitReset: { name: 'RateLimit-Reset', description: 'Seconds until the window resets.' },
  retryAfter: { name: 'Retry-After', description: 'Seconds to wait before retrying.' },
  clusterId: {
    name: 'X-Cluster-Id',
    description:
      'With a session token on a data route: the cluster to act on (one the user owns); the default cluster when left out.',
  },
  idempotencyKey: {
    name: 'Idempotency-Key',
    description:
      'Makes a write safe to retry: the same key and request within 24 hours replays the first answer.',
  },
  idempotentReplayed: {
    name: 'Idempotent-Replayed',
    description:
      'Present and "true" when the answer is a replay of an earlier request with the same Idempotency-Key.',
  },
  etag: {
    name: 'ETag',
    description:
      'A strong entity tag of the document as stored: it changes with every write. Send it back in `If-Match` to write only that version, or in `If-None-Match` to read only when it changed.',
  },
  ifMatch: {
    name: 'If-Match',
    description:
      "Writes only when the document's current `ETag` is one of these entity tags (or exists at all, with `*`); 412 `precondition_failed` otherwise, with nothing written.",
  },
  ifNoneMatch: {
    name: 'If-None-Match',
    description:
      "Answers 304 Not Modified, without a body, when the document's current `ETag` is one of these entity tags (or with `*`).",
  },
} as const;
