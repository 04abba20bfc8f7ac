import type { FailureContext } from './failure.js';

/** How to give the CLI a credential; one sentence, reused by every hint about credentials. */
export const CREDENTIAL_HOWTO =
  'sign in with `dp login`, or pass --api-key <key>, set DATAPLATFORM_API_KEY, or save one with `dp config set api-key <key>`';

/** How to point the CLI at a server. */
export const BASE_URL_HOWTO =
  'pass --base-url <url>, set DATAPLATFORM_BASE_URL, or save it with `dp config set base-url <url>`';

type Hint = (details: unknown, context: FailureContext) => string;

const sent = (context: FailureContext) =>
  context.credentialOrigin ? ` (the ${kindName(context)} from ${context.credentialOrigin})` : '';

function kindName(context: FailureContext): string {
  return context.credentialKind === 'token' ? 'token' : 'API key';
}

/** Hints by the API's error code: the fix for each documented failure. */
export const hintsByCode: Record<string, Hint> = {
  unauthorized: (_, c) => `the server does not know this credential${sent(c)}; ${CREDENTIAL_HOWTO}`,
  key_expired: (_, c) => `the API key${sent(c)} has expired; create a new key, then ${CREDENTIAL_HOWTO}`,
  key_paused: (_, c) => `the API key${sent(c)} is paused; resume it in the dashboard or use another key`,
  session_expired: (_, c) =>
    `the session token${sent(c)} expired or was revoked; sign in again with \`dp login\` or use an API key`,
  insufficient_scope: (details) => {
    const required = (details as { required?: unknown } | undefined)?.required;
    const names = Array.isArray(required)
      ? required.join(' or ')
      : typeof required === 'string'
        ? required
        : '';
    return `use a key that holds the ${names ? `${names} scope` : 'scope this needs'}`;
  },
  ip_blocked: () => "this machine's address is not on the account's IP allowlist",
  not_found: () => 'check the collection name and the id; `dp data list <collection>` shows the ids',
  reserved_collection: () => 'that collection name is taken by a fixed route; choose another name',
  invalid_sql: () => 'docs/sql.md lists the statements the SQL helper understands',
  invalid_body: () => 'send one JSON object whose own fields do not start with "_"',
  conflict: () => 'a document with this id exists already; `dp data replace` overwrites it',
  idempotency_mismatch: () => 'that Idempotency-Key was used for another request; use a new key',
  transaction_aborted: (details) => {
    const d = details as { index?: unknown; status?: unknown; code?: unknown } | undefined;
    const which = typeof d?.index === 'number' ? `operation ${d.index} failed (${d.status} ${d.code})` : '';
    return `nothing was written${which ? `: ${which}` : ''}; fix it and run the batch again`;
  },
  schema_violation: (details) => {
    const errors = (details as { errors?: { path?: unknown; message?: unknown }[] } | undefined)?.errors;
    const first =
      Array.isArray(errors) && errors[0]
        ? `${String(errors[0].path) || '/'} ${String(errors[0].message)}; `
        : '';
    return `${first}the document must match the collection's validator (\`dp schema get <collection>\` prints it)`;
  },
  unique_violation: (details) => {
    const index = (details as { index?: unknown } | undefined)?.index;
    return `another document has the same values for the unique index${typeof index === 'string' ? ` ${index}` : ''}; change them, or see \`dp indexes list <collection>\``;
  },
  payload_too_large: () => "the body is over the server's size limit (1 MiB by default); make it smaller",
  rate_limited: () => 'the key used up its requests for this minute; wait a minute and run the command again',
  cluster_unavailable: () => "the key's cluster is paused or being deleted; resume it in the dashboard",
  internal_error: () => 'the server failed; quote the request id when you report it',
};

/** The hint when no answer arrived: which address was tried, and how to change it. */
export function unreachableHint(context: FailureContext, timedOut: boolean): string {
  if (timedOut) return `the server at ${context.baseUrl ?? 'the base address'} did not answer in time`;
  if (context.baseUrlIsDefault) {
    return `no base address is set, so ${context.baseUrl} (the default) was tried; start the server there (\`pnpm start\`) or ${BASE_URL_HOWTO}`;
  }
  return `is the server running at ${context.baseUrl}? Otherwise ${BASE_URL_HOWTO}`;
}
