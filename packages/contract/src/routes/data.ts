import { z } from 'zod';
import { Deleted } from '../schemas/common.js';
import {
  CollectionParams,
  Document,
  DocumentInput,
  DocumentList,
  DocumentParams,
  DocumentPatch,
  DocumentReplace,
  ListDocumentsQuery,
} from '../schemas/document.js';
import { WebhookEvent } from '../schemas/webhook.js';
import type { RouteDefinition } from './types.js';

const tag = 'data';

/** Where a change stream resumes, instead of a `Last-Event-ID` header (for clients that cannot set one). */
const ChangesQuery = z.strictObject({
  since: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'An event id (or a `start_…` id) to resume after, as `Last-Event-ID` does' }),
  where: z.string().min(1).max(10_000).optional().meta({
    description:
      "Only events whose document matches this condition, in the SQL helper's WHERE grammar (the document after the change; before it, for deletes)",
    example: "status = 'paid'",
  }),
  params: z.string().min(1).max(10_000).optional().meta({
    description: "A JSON array of the values of `where`'s `?` or `$n` placeholders",
    example: '["paid"]',
  }),
});

/** The document routes under /api/v1/data. */
export const dataRoutes = [
  {
    id: 'data.changes',
    method: 'GET',
    path: '/api/v1/data/{collection}/changes',
    tag,
    summary: "Stream a collection's changes",
    description:
      'Server-sent events of the collection\'s document events, fed by the same outbox as webhooks (an acknowledged write is never missing): `id:` the event id, `event:` the event type, `data:` the event as a webhook receiver gets it (`WebhookEvent`). Events of one document come in the order they were written. A new stream first sends an `id:` line alone, `start_<ISO time>`, so a client that reconnects before any event arrived misses nothing. `Last-Event-ID` (or `?since=`, the header wins) resumes after that event without a gap or a duplicate for as long as events are kept (at least 24 hours); an id that is no longer kept (or never was) gets one `error` event (`data: {"code":"gone",…}`) and the stream closes. A comment line every 15 s keeps proxies from closing the connection. The path\'s `changes` is fixed: a document whose id is `changes` is still written and deleted by id, but read through the list of the collection. `where` (with `params`) keeps only the events whose document matches, in the SQL helper\'s condition grammar; an invalid condition or parameters answer 400 `invalid_sql` before the stream opens. A key (or a signed-in user) has at most `DATAPLATFORM_MAX_STREAMS` streams open at once (100 by default; WebSocket subscriptions count too): one more answers 429 `too_many_streams`. A reader that falls too far behind is sent an `error` event (`code: "too_slow"`, `lastEventId`) and closed; it resumes from that id. A stream ends with an `error` event when its key is paused, rotated or deleted, loses `data:read`, or the cluster is paused.',
    auth: 'data',
    scopes: ['data:read'],
    params: CollectionParams,
    query: ChangesQuery,
    success: {
      status: 200,
      description: 'A stream of server-sent events',
      schema: WebhookEvent,
      contentType: 'text/event-stream',
    },
    errors: ['validation_error', 'reserved_collection', 'invalid_sql', 'too_many_streams'],
  },
  {
    id: 'data.list',
    method: 'GET',
    path: '/api/v1/data/{collection}',
    tag,
    summary: 'List documents',
    description:
      'One page of a collection, with the number of all its documents. Unknown collections answer 200 with no data. Without `sort`, documents come in `_id` order, which is creation order for generated ids; ties of a sort are broken by `_id` in the direction of the last sort key.',
    auth: 'data',
    scopes: ['data:read'],
    params: CollectionParams,
    query: ListDocumentsQuery,
    success: { status: 200, description: 'A page of documents', schema: DocumentList },
    errors: ['validation_error', 'reserved_collection'],
  },
  {
    id: 'data.create',
    method: 'POST',
    path: '/api/v1/data/{collection}',
    tag,
    summary: 'Create a document',
    description:
      "Stores a new document. A supplied `_id` is kept; otherwise a sortable id is generated. A document that does not match the collection's strict validator is 400 `schema_violation`; one that repeats the values of a unique index is 409 `unique_violation`.",
    auth: 'data',
    scopes: ['data:write'],
    params: CollectionParams,
    body: DocumentInput,
    idempotent: true,
    success: {
      status: 201,
      description: 'The stored document',
      schema: Document,
      headers: ['location', 'etag', 'idempotentReplayed'],
    },
    errors: [
      'validation_error',
      'invalid_json',
      'invalid_body',
      'reserved_collection',
      'conflict',
      'idempotency_mismatch',
      'payload_too_large',
      'schema_violation',
      'unique_violation',
    ],
  },
  {
    id: 'data.get',
    method: 'GET',
    path: '/api/v1/data/{collection}/{id}',
    tag,
    summary: 'Get a document',
    auth: 'data',
    scopes: ['data:read'],
    params: DocumentParams,
    conditional: 'read',
    success: { status: 200, description: 'The document', schema: Document, headers: ['etag'] },
    errors: ['validation_error', 'reserved_collection', 'not_found'],
  },
  {
    id: 'data.replace',
    method: 'PUT',
    path: '/api/v1/data/{collection}/{id}',
    tag,
    summary: 'Replace a document',
    description: 'The body replaces every field of the document; `_id` and `_createdAt` are kept.',
    auth: 'data',
    scopes: ['data:write'],
    params: DocumentParams,
    body: DocumentReplace,
    idempotent: true,
    conditional: 'write',
    success: {
      status: 200,
      description: 'The stored document',
      schema: Document,
      headers: ['etag', 'idempotentReplayed'],
    },
    errors: [
      'validation_error',
      'invalid_json',
      'invalid_body',
      'reserved_collection',
      'not_found',
      'idempotency_mismatch',
      'payload_too_large',
      'schema_violation',
      'unique_violation',
      'precondition_failed',
    ],
  },
  {
    id: 'data.update',
    method: 'PATCH',
    path: '/api/v1/data/{collection}/{id}',
    tag,
    summary: 'Update a document (JSON Merge Patch)',
    description:
      'Applies a JSON Merge Patch (RFC 7396): fields set to `null` are removed, nested objects merge.',
    auth: 'data',
    scopes: ['data:write'],
    params: DocumentParams,
    body: DocumentPatch,
    idempotent: true,
    conditional: 'write',
    success: {
      status: 200,
      description: 'The stored document',
      schema: Document,
      headers: ['etag', 'idempotentReplayed'],
    },
    errors: [
      'validation_error',
      'invalid_json',
      'invalid_body',
      'reserved_collection',
      'not_found',
      'idempotency_mismatch',
      'payload_too_large',
      'schema_violation',
      'unique_violation',
      'precondition_failed',
    ],
  },
  {
    id: 'data.delete',
    method: 'DELETE',
    path: '/api/v1/data/{collection}/{id}',
    tag,
    summary: 'Delete a document',
    auth: 'data',
    scopes: ['data:write'],
    params: DocumentParams,
    idempotent: true,
    conditional: 'write',
    success: {
      status: 200,
      description: 'The document was deleted',
      schema: Deleted,
      headers: ['idempotentReplayed'],
    },
    errors: [
      'validation_error',
      'reserved_collection',
      'not_found',
      'idempotency_mismatch',
      'precondition_failed',
    ],
  },
] as const satisfies readonly RouteDefinition[];
