import { BATCH_BODY_LIMIT, BatchRequest, BatchResult } from '../schemas/batch.js';
import type { RouteDefinition } from './types.js';

const SCOPE_NOTE =
  'Scopes are checked per operation before any operation runs: get needs `data:read`; insert, update, patch and delete need `data:write` (or their `database:*` aliases). A batch that needs a scope the credential lacks is refused with 403 `insufficient_scope` and nothing runs.';

/** The batch helper under /api/v1/data; its fixed path wins over `/api/v1/data/{collection}`. */
export const batchRoutes = [
  {
    id: 'data.batch',
    method: 'POST',
    path: '/api/v1/data/batch',
    tag: 'data',
    summary: 'Run up to 1000 document operations',
    description: [
      'Applies `insert`, `get`, `update` (replace, as PUT), `patch` (JSON Merge Patch, as PATCH) and `delete` operations in order and answers one result per operation, each with the status the single-document route would have given (201 for an insert, 200 otherwise; 400, 404 or 409 when it failed), `data` on success and `error` on failure.',
      'Without `transaction` (the default) every operation stands on its own: a failed one changes nothing and the rest still run. With `"transaction": true` either every operation is applied or none: on the first failure nothing is kept and the answer is 409 `transaction_aborted` with `details: { index, status, code }`. Reads inside a transaction see its earlier writes.',
      'A body that is not of the documented shape (not an object, no operations or more than 1000, an unknown `op`, a missing `id` or `data`, `data` that is not an object) is 400 `invalid_batch`, with `details.index` naming the first wrong operation.',
      SCOPE_NOTE,
      'The body limit of this route is 16 MiB by default (`DATAPLATFORM_BATCH_BODY_LIMIT`).',
    ].join('\n\n'),
    auth: 'data',
    scopes: [],
    scopeNote: SCOPE_NOTE,
    body: BatchRequest,
    bodyLimit: BATCH_BODY_LIMIT,
    idempotent: true,
    success: {
      status: 200,
      description: 'One result per operation, in order',
      schema: BatchResult,
      headers: ['idempotentReplayed'],
    },
    errors: [
      'invalid_batch',
      'validation_error',
      'invalid_json',
      'payload_too_large',
      'transaction_aborted',
      'insufficient_scope',
      'idempotency_mismatch',
    ],
  },
] as const satisfies readonly RouteDefinition[];
