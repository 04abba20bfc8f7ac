import {
  ApiKey,
  ApiKeyCreate,
  ApiKeyList,
  ApiKeyParams,
  ApiKeyUsagePage,
  ApiKeyUsageQuery,
  ApiKeyWithSecret,
} from '../schemas/api-key.js';
import { Deleted } from '../schemas/common.js';
import type { RouteDefinition } from './types.js';

const tag = 'keys';

/** Another owner's key answers as if it did not exist. */
const NOT_YOURS = "Another user's key, or a robot's, is 404 `not_found`.";

/**
 * The signed-in user's own API keys under /api/keys (a robot's keys are managed through the robot). Session token
 * only, and subject to the account's IP allowlist (403 `ip_blocked`).
 */
export const keysRoutes = [
  {
    id: 'keys.create',
    method: 'POST',
    path: '/api/keys',
    tag,
    summary: 'Create an API key',
    description:
      "The scopes must be held by the caller (403 `forbidden`, `details.scopes` names the others); `clusterId` must be one of the caller's clusters (400 `validation_error`), the default cluster when left out. Expiry is `expiresIn` (`never` by default, `30d`, `90d`, `1y`) or `expiresAt`, a future instant, not both. The answer carries the secret: it is shown here and after a rotation only.",
    auth: 'session',
    scopes: [],
    body: ApiKeyCreate,
    success: { status: 201, description: 'The key and its secret', schema: ApiKeyWithSecret },
    errors: ['validation_error', 'invalid_json', 'invalid_body', 'forbidden', 'conflict', 'ip_blocked'],
  },
  {
    id: 'keys.list',
    method: 'GET',
    path: '/api/keys',
    tag,
    summary: 'List your API keys',
    description: "The caller's own keys, newest first; never their secrets.",
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'The keys', schema: ApiKeyList },
    errors: ['ip_blocked'],
  },
  {
    id: 'keys.get',
    method: 'GET',
    path: '/api/keys/{id}',
    tag,
    summary: 'Get an API key',
    description: NOT_YOURS,
    auth: 'session',
    scopes: [],
    params: ApiKeyParams,
    success: { status: 200, description: 'The key', schema: ApiKey },
    errors: ['validation_error', 'not_found', 'ip_blocked'],
  },
  {
    id: 'keys.pause',
    method: 'POST',
    path: '/api/keys/{id}/pause',
    tag,
    summary: 'Pause an API key',
    description: `The key stops working at once (401 \`key_paused\`); its usage history is kept. Pausing a paused key changes nothing; an expired key is 409 \`conflict\`. ${NOT_YOURS}`,
    auth: 'session',
    scopes: [],
    params: ApiKeyParams,
    success: { status: 200, description: 'The paused key', schema: ApiKey },
    errors: ['validation_error', 'not_found', 'conflict', 'ip_blocked'],
  },
  {
    id: 'keys.resume',
    method: 'POST',
    path: '/api/keys/{id}/resume',
    tag,
    summary: 'Resume an API key',
    description: `A paused key works again. Resuming an active key changes nothing; an expired key is 409 \`conflict\`. ${NOT_YOURS}`,
    auth: 'session',
    scopes: [],
    params: ApiKeyParams,
    success: { status: 200, description: 'The active key', schema: ApiKey },
    errors: ['validation_error', 'not_found', 'conflict', 'ip_blocked'],
  },
  {
    id: 'keys.rotate',
    method: 'POST',
    path: '/api/keys/{id}/rotate',
    tag,
    summary: 'Rotate an API key',
    description: `Gives the key a new secret, shown once in the answer; the old secret stops working at once (401 \`unauthorized\`). The key id stays. A paused or expired key is 409 \`conflict\`. ${NOT_YOURS}`,
    auth: 'session',
    scopes: [],
    params: ApiKeyParams,
    success: { status: 200, description: 'The key and its new secret', schema: ApiKeyWithSecret },
    errors: ['validation_error', 'not_found', 'conflict', 'ip_blocked'],
  },
  {
    id: 'keys.delete',
    method: 'DELETE',
    path: '/api/keys/{id}',
    tag,
    summary: 'Delete an API key',
    description: `Permanent: requests with the key answer 401 \`unauthorized\`, and its usage history goes with it. ${NOT_YOURS}`,
    auth: 'session',
    scopes: [],
    params: ApiKeyParams,
    success: { status: 200, description: 'The key is gone', schema: Deleted },
    errors: ['validation_error', 'not_found', 'ip_blocked'],
  },
  {
    id: 'keys.usage',
    method: 'GET',
    path: '/api/keys/{id}/usage',
    tag,
    summary: "List a key's usage history",
    description: `Requests made with the key, newest first: \`denied\` for answers refused by authentication, authorization or the rate limit (401, 403, 429), \`success\` for every other. ${NOT_YOURS}`,
    auth: 'session',
    scopes: [],
    params: ApiKeyParams,
    query: ApiKeyUsageQuery,
    success: { status: 200, description: 'A page of entries', schema: ApiKeyUsagePage },
    errors: ['validation_error', 'not_found', 'ip_blocked'],
  },
] as const satisfies readonly RouteDefinition[];
