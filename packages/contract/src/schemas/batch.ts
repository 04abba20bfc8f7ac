import { z } from 'zod';

/** The most operations one batch may carry. */
export const BATCH_MAX_OPERATIONS = 1000;

/** Default body limit of the batch route (16 MiB): room for 1000 ordinary documents. */
export const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

/** The operation kinds of a batch: `update` replaces (as PUT), `patch` merges (as PATCH, RFC 7396). */
export const BATCH_OPERATION_KINDS = ['insert', 'get', 'update', 'patch', 'delete'] as const;

/** An operation kind of a batch. */
export type BatchOperationKind = (typeof BATCH_OPERATION_KINDS)[number];

const NEEDS_ID: readonly BatchOperationKind[] = ['get', 'update', 'patch', 'delete'];
const TAKES_DATA: readonly BatchOperationKind[] = ['insert', 'update', 'patch'];

/** One operation of a batch. Its kind decides which of `id` and `data` it needs. */
export const BatchOperation = z
  .strictObject({
    op: z.enum(BATCH_OPERATION_KINDS).meta({
      description:
        '`insert` (as POST), `get`, `update` (replace, as PUT), `patch` (JSON Merge Patch, as PATCH) or `delete`',
    }),
    collection: z.string().meta({
      description:
        'Collection name. A malformed or reserved name fails this operation with 400 `validation_error` or `reserved_collection`',
      example: 'orders',
    }),
    id: z.string().optional().meta({
      description:
        'Document id; needed by get, update, patch and delete. On insert it is the `_id` to use (same as `data._id`)',
    }),
    data: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'The document (insert, update) or the merge patch (patch); a JSON object. Not allowed on get and delete',
    }),
  })
  .superRefine((operation, ctx) => {
    if (NEEDS_ID.includes(operation.op) && operation.id === undefined)
      ctx.addIssue({ code: 'custom', path: ['id'], message: `"${operation.op}" needs an id` });
    if (TAKES_DATA.includes(operation.op) && operation.data === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: `"${operation.op}" needs data, a JSON object`,
      });
    if (!TAKES_DATA.includes(operation.op) && operation.data !== undefined)
      ctx.addIssue({ code: 'custom', path: ['data'], message: `"${operation.op}" takes no data` });
  })
  .meta({
    id: 'BatchOperation',
    description:
      'One operation of a batch: `{ op, collection, id?, data? }`. get, update, patch and delete need `id`; insert, update and patch need `data`.',
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
  .meta({ id: 'BatchRequest', description: 'Up to 1000 document operations in one request.' });

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
      description: '201 for an insert, 200 for the others; 400, 404 or 409 when the operation failed',
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
/** A batch request after validation, `transaction` defaulted to false. */
export type BatchRequestBody = { operations: BatchOperationInput[]; transaction: boolean };
/** The error of one failed batch operation. */
export type BatchErrorBody = z.infer<typeof BatchError>;
/** The result of one batch operation. */
export type BatchOperationResultBody = z.infer<typeof BatchOperationResult>;
/** The answer of a batch. */
export type BatchResponse = z.infer<typeof BatchResult>;
