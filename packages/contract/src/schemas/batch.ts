import { z } from 'zod';

/** The most operations one batch may carry. */
export const BATCH_MAX_OPERATIONS = 1000;

/** Default body limit of the batch route (16 MiB): room for 1000 ordinary documents. */
export const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

/** The operation kinds of a batch: `update` replaces (as PUT), `patch` merges (as PATCH, RFC 7396). */
export const BATCH_OPERATION_KINDS = ['insert', 'get', 'update', 'patch', 'delete'] as const;

/** An operation kind of a batch. */
export type BatchOperationKind = (typeof BATCH_OPERATION_KINDS)[number];

const COLLECTION_DESCRIPTION =
  'Collection name. A malformed or reserved name fails this operation with 400 `validation_error` or `reserved_collection`';

/**
 * One kind of operation: `op`, `collection`, and `id` and `data` as the kind needs them. A strict object, so a
 * field the kind does not take (such as `data` on a get) is refused with a message naming it.
 */
function operationOf<K extends BatchOperationKind, S extends z.ZodRawShape>(
  op: K,
  description: string,
  shape: S,
) {
  return z
    .strictObject(
      {
        op: z.literal(op).meta({ description }),
        collection: z.string().meta({ description: COLLECTION_DESCRIPTION, example: 'orders' }),
        ...shape,
      },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys' ? `"${op}" takes no ${issue.keys.join(', ')}` : undefined,
      },
    )
    .meta({ id: `Batch${op[0]!.toUpperCase()}${op.slice(1)}Operation` });
}

function documentId(op: BatchOperationKind, description: string) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `"${op}" needs an id` : undefined) })
    .meta({ description });
}

const ifMatch = z.string().min(1).max(1024).optional().meta({
  description:
    "As the `If-Match` header of the single-document route: the operation writes only when the document's current `ETag` is one of these entity tags (or exists, with `*`); 412 `precondition_failed` otherwise",
  example: '"3q2-7w"',
});

function documentData(op: BatchOperationKind, description: string) {
  return z
    .record(z.string(), z.unknown(), {
      error: (issue) => (issue.input === undefined ? `"${op}" needs data, a JSON object` : undefined),
    })
    .meta({ description });
}

const DATA_RULES =
  'The rules of the single-document route apply to it and fail this operation alone (400, or 413 past the body limit)';

/**
 * One operation of a batch, one schema per kind (`oneOf` in the OpenAPI document): get, update, patch and
 * delete need `id`; insert, update and patch need `data`; get and delete take no `data`.
 */
export const BatchOperation = z
  .discriminatedUnion(
    'op',
    [
      operationOf('insert', 'Insert a document, as POST', {
        id: z
          .string()
          .optional()
          .meta({ description: 'The `_id` to use (same as `data._id`); generated when neither is given' }),
        data: documentData('insert', `The document. ${DATA_RULES}`),
      }),
      operationOf('get', 'Read a document, as GET', { id: documentId('get', 'Document id') }),
      operationOf('update', 'Replace a document, as PUT', {
        id: documentId('update', 'Document id'),
        data: documentData('update', `The new fields. ${DATA_RULES}`),
        ifMatch,
      }),
      operationOf('patch', 'Merge a JSON Merge Patch into a document, as PATCH', {
        id: documentId('patch', 'Document id'),
        data: documentData('patch', `The merge patch. ${DATA_RULES}`),
        ifMatch,
      }),
      operationOf('delete', 'Delete a document, as DELETE', {
        id: documentId('delete', 'Document id'),
        ifMatch,
      }),
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `"op" must be one of ${BATCH_OPERATION_KINDS.map((kind) => `"${kind}"`).join(', ')}`
          : undefined,
    },
  )
  .meta({
    id: 'BatchOperation',
    description:
      'One operation of a batch: `{ op, collection, id?, data?, ifMatch? }`. get, update, patch and delete need `id`; insert, update and patch need `data`; update, patch and delete may carry `ifMatch`.',
  });

/** The body of `POST /api/v1/data/batch`. */
export const BatchRequest = z
  .strictObject({
    operations: z
      .array(BatchOperation)
      .min(1)
      .max(BATCH_MAX_OPERATIONS)
      .meta({
        description: `The operations, applied in order; 1 to ${BATCH_MAX_OPERATIONS}`,
      }),
    // Optional rather than defaulted, so the OpenAPI request schema does not list it as required.
    transaction: z.boolean().optional().meta({
      default: false,
      description:
        'true: all or nothing; the first failure rolls every operation back (409 `transaction_aborted`). false: each operation on its own',
    }),
  })
  // No component id: a request schema with a default is written inline in its requestBody (see openapi/build.ts).
  .meta({ description: 'Up to 1000 document operations in one request.' });

/** The error of one failed operation: what the single-document route would have answered, without `requestId`. */
export const BatchError = z
  .object({
    error: z.string().meta({ description: 'Human-readable message' }),
    code: z.string().meta({ description: 'Machine-readable error code (see the error registry)' }),
    details: z.unknown().optional().meta({ description: 'Extra facts, such as the invalid field' }),
  })
  .meta({ id: 'BatchError', description: 'Why one operation of a batch failed.' });

/** The result of one operation: its index, the status the single-document route would have given, data or error. */
export const BatchOperationResult = z
  .object({
    index: z.number().int().min(0).meta({ description: 'Position of the operation in the request' }),
    status: z.number().int().min(100).max(599).meta({
      description: '201 for an insert, 200 for the others; 400, 404, 409 or 412 when the operation failed',
    }),
    data: z.record(z.string(), z.unknown()).optional().meta({
      description: 'On success: the stored document, or `{ _id, deleted: true }` for a delete',
    }),
    error: BatchError.optional(),
  })
  .meta({ id: 'BatchOperationResult', description: 'What one operation of a batch gave.' });

/** The answer of a batch: one result per operation, in order. */
export const BatchResult = z
  .object({
    results: z.array(BatchOperationResult),
    transaction: z.boolean().meta({ description: 'Whether the batch ran as one transaction' }),
  })
  .meta({ id: 'BatchResult', description: 'One result per operation, in the order of the request.' });

/** A batch operation as sent. */
export type BatchOperationInput = z.input<typeof BatchOperation>;
/** A batch request as sent. */
export type BatchRequestInput = z.input<typeof BatchRequest>;
/** One operation of a validated batch, its fields read alike whatever its kind. */
export interface BatchOperationFields {
  op: BatchOperationKind;
  collection: string;
  id?: string;
  data?: Record<string, unknown>;
  /** update, patch and delete: the If-Match of the single-document route. */
  ifMatch?: string;
}
/** A batch request after validation, `transaction` defaulted to false. */
export type BatchRequestBody = { operations: BatchOperationFields[]; transaction: boolean };
/** The error of one failed batch operation. */
export type BatchErrorBody = z.infer<typeof BatchError>;
/** The result of one batch operation. */
export type BatchOperationResultBody = z.infer<typeof BatchOperationResult>;
/** The answer of a batch. */
export type BatchResponse = z.infer<typeof BatchResult>;
