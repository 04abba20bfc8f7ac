/** Every error code the API answers with, its HTTP status and what it means. One registry for server, clients and docs. */
export const errorCodes = {
  validation_error: {
    status: 400,
    message: 'Request validation failed',
    description: 'A parameter, query value or body field is not of the documented form; `details` names it.',
  },
  invalid_json: {
    status: 400,
    message: 'Malformed JSON body',
    description: 'The request body could not be parsed as JSON.',
  },
  invalid_body: {
    status: 400,
    message: 'Body must be a JSON object',
    description: 'The body parsed, but it is not a JSON object, or it carries a reserved `_` field.',
  },
  invalid_sql: {
    status: 400,
    message: 'Invalid SQL',
    description:
      "The SQL helper could not parse or translate the statement, or a change stream's `where` condition or its `params`.",
  },
  invalid_batch: {
    status: 400,
    message: 'Invalid batch payload',
    description: 'The batch body is not of the documented shape; `details` names the first wrong operation.',
  },
  reserved_collection: {
    status: 400,
    message: 'Collection name is reserved',
    description: 'The collection name is taken by a fixed route under /api/v1/data.',
  },
  schema_violation: {
    status: 400,
    message: 'Document does not match the collection schema',
    description:
      'The collection has a `strict` validator and the document (for a patch, the merged document) does not match its JSON Schema; `details.errors` lists `{ path, message }` for each failure. Nothing was written.',
  },
  unauthorized: {
    status: 401,
    message: 'Missing or invalid credentials',
    description:
      'No credential, or an unknown, rotated-away or deleted API key, or an invalid session token.',
  },
  key_expired: {
    status: 401,
    message: 'API key has expired',
    description: 'The API key passed its expiry date.',
  },
  key_paused: {
    status: 401,
    message: 'API key is paused',
    description: 'The API key is paused; resume it to use it again.',
  },
  session_expired: {
    status: 401,
    message: 'Session has expired',
    description: 'The session token expired or was revoked.',
  },
  invalid_credentials: {
    status: 401,
    message: 'Invalid e-mail or password',
    description: 'Sign-in failed; unknown e-mail and wrong password answer alike.',
  },
  payment_required: {
    status: 402,
    message: 'Payment required',
    description:
      'The account is `suspended` (a payg account whose credits ran out): data-plane writes are refused until credits are added; reads still work.',
  },
  insufficient_scope: {
    status: 403,
    message: 'Insufficient permissions for operation',
    description: 'The API key lacks the scope the route needs; `details.required` names it.',
  },
  ip_blocked: {
    status: 403,
    message: 'Request from a blocked address',
    description: 'The IP allowlist of the account does not include the client address.',
  },
  forbidden: {
    status: 403,
    message: 'Forbidden',
    description:
      "The credential may not perform this operation: the caller's role in the cluster does not allow it (`details.role`, `details.action`), or a session token names a cluster (`X-Cluster-Id`) its user is not a member of.",
  },
  plan_limit: {
    status: 403,
    message: 'Plan limit reached',
    description:
      "The account's plan does not allow this: another cluster past its allowance (free 1, starter 3, team and payg 10), or a tier above its own.",
  },
  not_found: {
    status: 404,
    message: 'Not found',
    description: 'The document, webhook or route does not exist.',
  },
  method_not_allowed: {
    status: 405,
    message: 'Method not allowed',
    description: 'The path exists, but not with this method; the `Allow` header lists the methods it has.',
  },
  request_timeout: {
    status: 408,
    message: 'Request timeout',
    description:
      "The request did not arrive in full within the server's time limit; the connection is closed.",
  },
  conflict: {
    status: 409,
    message: 'Conflict',
    description:
      'A resource with this identifier already exists, or the resource is in a state that does not allow the operation (such as rotating a paused key).',
  },
  idempotency_mismatch: {
    status: 409,
    message: 'Idempotency key reused with a different request',
    description: 'The Idempotency-Key was first used with another method, path or body.',
  },
  transaction_aborted: {
    status: 409,
    message: 'Transaction aborted',
    description:
      'An operation of a transactional batch failed; nothing was kept. `details` names the operation.',
  },
  precondition_failed: {
    status: 412,
    message: 'Precondition failed',
    description:
      "The document changed since the caller read it: the `If-Match` header (or a batch operation's `ifMatch`) names none of its current entity tags. Nothing was written; read the document again (its `ETag`) and retry.",
  },
  unique_violation: {
    status: 409,
    message: 'Unique index violated',
    description:
      'The write would give two documents of the collection the same values of a unique index; `details.index` names the index and `details.fields` its fields. Nothing was written.',
  },
  payload_too_large: {
    status: 413,
    message: 'Payload too large',
    description: 'The request body exceeds the configured limit (1 MiB by default).',
  },
  uri_too_long: {
    status: 414,
    message: 'URI too long',
    description:
      'A path segment is longer than any identifier the API uses (2048 characters, percent-encoded).',
  },
  unsupported_media_type: {
    status: 415,
    message: 'Unsupported media type',
    description:
      'The body is not sent as JSON: send `Content-Type: application/json` (or leave the header out). Import routes name their own media types.',
  },
  function_error: {
    status: 422,
    message: 'The function threw',
    description:
      'The function ran and threw (or its module failed to load); `details.message` and `details.stack` say what it threw.',
  },
  function_timeout: {
    status: 422,
    message: 'The function ran out of time',
    description:
      'The function ran longer than its `timeoutMs`; it was stopped. `details.timeoutMs` is the limit.',
  },
  function_memory_exceeded: {
    status: 422,
    message: 'The function ran out of memory',
    description:
      "The function's heap grew past its `memoryMb`; it was stopped. `details.memoryMb` is the limit.",
  },
  authorization_pending: {
    status: 428,
    message: 'Authorization pending',
    description:
      'Device sign-in (RFC 8628): the person has not yet confirmed the code; poll again after `interval` seconds.',
  },
  slow_down: {
    status: 400,
    message: 'Polling too fast',
    description:
      'Device sign-in (RFC 8628): polled again before `interval` seconds passed; wait 5 seconds longer between polls from now on.',
  },
  expired_token: {
    status: 400,
    message: 'Device code expired',
    description: 'Device sign-in (RFC 8628): the code expired before it was confirmed; start again.',
  },
  access_denied: {
    status: 403,
    message: 'Sign-in denied',
    description: 'Device sign-in (RFC 8628): the person refused the request on the confirmation page.',
  },
  invalid_grant: {
    status: 400,
    message: 'Unknown device code',
    description:
      'Device sign-in (RFC 8628): no request has this device code, or its session was handed out already (a code works once).',
  },
  rate_limited: {
    status: 429,
    message: 'Rate limit exceeded',
    description:
      'The key or user used up its requests for this minute, or the client address its sign-ins, sign-ups or reset requests, or the sign-in of this e-mail from this address is locked after repeated failures; retry after the `Retry-After` seconds.',
  },
  upgrade_required: {
    status: 426,
    message: 'Upgrade required',
    description: 'The route is a WebSocket: connect with `Connection: Upgrade` and `Upgrade: websocket`.',
  },
  too_many_streams: {
    status: 429,
    message: 'Too many open streams',
    description:
      'The key (or the signed-in user) already has `DATAPLATFORM_MAX_STREAMS` change streams and WebSocket subscriptions open (100 by default); close one first.',
  },
  headers_too_large: {
    status: 431,
    message: 'Request header fields too large',
    description: 'The request line and headers together exceed 16 KiB.',
  },
  internal_error: {
    status: 500,
    message: 'Internal server error',
    description: 'An unexpected failure; the body never carries a stack trace or a secret.',
  },
  cluster_unavailable: {
    status: 503,
    message: 'Cluster unavailable',
    description: "The key's cluster is paused or being deleted.",
  },
} as const satisfies Record<string, { status: number; message: string; description: string }>;

/** A documented error code. */
export type ErrorCode = keyof typeof errorCodes;

/** The documented error codes, in registry order. */
export const ERROR_CODES = Object.keys(errorCodes) as ErrorCode[];

/** The HTTP status that goes with an error code. */
export function statusOf(code: ErrorCode): number {
  return errorCodes[code].status;
}
