import { dataRoutes } from '../routes/data.js';
import {
  BATCH_MAX_OPERATIONS,
  type BatchOperationFields,
  type BatchOperationKind,
  BatchRequest,
  type BatchRequestBody,
} from '../schemas/batch.js';
import { isDocumentId } from '../schemas/document.js';
import { satisfiesScope } from '../scopes.js';
import {
  checkCollectionName,
  checkDocumentBody,
  invalidDocumentId,
  isJsonObject,
  type Violation,
} from './documents.js';

/** The single-document route each batch operation stands for: its scopes and success status come from there. */
export const BATCH_OPERATION_ROUTES = {
  insert: 'data.create',
  get: 'data.get',
  update: 'data.replace',
  patch: 'data.update',
  delete: 'data.delete',
} as const satisfies Record<BatchOperationKind, (typeof dataRoutes)[number]['id']>;

/** The single-document route of a batch operation kind. */
export function batchOperationRoute(kind: BatchOperationKind) {
  return dataRoutes.find((route) => route.id === BATCH_OPERATION_ROUTES[kind])!;
}

function invalid(message: string, details?: Record<string, unknown>): Violation {
  return { code: 'invalid_batch', message, ...(details ? { details } : {}) };
}

/**
 * Checks a batch body's shape: an object with 1 to 1000 operations, each of a known kind with the `id` and
 * `data` its kind needs. Returns the request (the caller's own objects, `transaction` defaulted) or a
 * 400 `invalid_batch` violation naming the first wrong operation in `details.index`.
 */
export function parseBatchRequest(body: unknown): BatchRequestBody | Violation {
  if (!isJsonObject(body)) return invalid('Body must be a JSON object with an "operations" array');
  const { operations } = body;
  if (operations === undefined) {
    return invalid(
      'Body needs an "operations" array: POST /api/v1/data/batch runs a batch ("batch" cannot name a collection)',
      { field: 'operations' },
    );
  }
  // Counted before anything else, so an oversized batch costs nothing to refuse.
  if (Array.isArray(operations) && operations.length > BATCH_MAX_OPERATIONS) {
    return invalid(`A batch holds at most ${BATCH_MAX_OPERATIONS} operations, got ${operations.length}`, {
      index: BATCH_MAX_OPERATIONS,
      field: 'operations',
      limit: BATCH_MAX_OPERATIONS,
    });
  }
  if (isWellFormedBatch(body)) {
    return { operations: operations as BatchOperationFields[], transaction: body.transaction === true };
  }
  const parsed = BatchRequest.safeParse(body);
  if (parsed.success) {
    // The caller's objects rather than zod's copies: a copy would re-assign keys such as "__proto__".
    return {
      operations: operations as BatchOperationFields[],
      transaction: parsed.data.transaction ?? false,
    };
  }
  const issues = parsed.error.issues.map((issue) => ({ issue, index: issue.path[1] }));
  const inOperation = issues
    .filter((entry): entry is typeof entry & { index: number } => typeof entry.index === 'number')
    .sort((a, b) => a.index - b.index);
  const { issue, index } = inOperation[0] ?? issues[0]!;
  // An unknown key is reported on its object; name the key itself.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  if (typeof index !== 'number') {
    const field = String(path[0] ?? 'operations');
    return invalid(`Invalid batch: "${field}": ${issue.message}`, { field });
  }
  const field = path.slice(2).map(String).join('.');
  return invalid(`Invalid operation ${index}${field ? `, field "${field}"` : ''}: ${issue.message}`, {
    index,
    ...(field ? { field } : {}),
  });
}

const OPERATION_KEYS = new Set(['op', 'collection', 'id', 'data', 'ifMatch']);
const KIND_NEEDS = {
  insert: { id: false, data: true, ifMatch: false },
  get: { id: true, data: false, ifMatch: false },
  update: { id: true, data: true, ifMatch: true },
  patch: { id: true, data: true, ifMatch: true },
  delete: { id: true, data: false, ifMatch: true },
} as const satisfies Record<BatchOperationKind, { id: boolean; data: boolean; ifMatch: boolean }>;

/**
 * True when `BatchRequest` would accept the body, decided without building zod's copies of up to 1000 documents
 * (a large share of a batch's cost). Only a yes skips zod: any other body goes through `BatchRequest`, which
 * words the error, so the schema stays the one source of the rules. A property test holds the two in agreement.
 */
export function isWellFormedBatch(body: unknown): body is { operations: unknown[]; transaction?: boolean } {
  if (!isJsonObject(body)) return false;
  for (const key in body) if (key !== 'operations' && key !== 'transaction') return false;
  const { operations, transaction } = body;
  if (transaction !== undefined && typeof transaction !== 'boolean') return false;
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > BATCH_MAX_OPERATIONS)
    return false;
  for (const operation of operations) if (!isWellFormedOperation(operation)) return false;
  return true;
}

function isWellFormedOperation(operation: unknown): boolean {
  if (!isJsonObject(operation)) return false;
  for (const key in operation) if (!OPERATION_KEYS.has(key)) return false;
  const { op, collection, id, data, ifMatch } = operation;
  if (typeof op !== 'string' || !Object.hasOwn(KIND_NEEDS, op) || typeof collection !== 'string')
    return false;
  const needs = KIND_NEEDS[op as BatchOperationKind];
  if (id === undefined ? needs.id : typeof id !== 'string') return false;
  if (Object.hasOwn(operation, 'ifMatch') && !(needs.ifMatch && isIfMatch(ifMatch))) return false;
  // A kind without data has no `data` key in its strict schema, even one holding undefined (a caller's object,
  // never parsed JSON).
  if (data === undefined) return !needs.data && !Object.hasOwn(operation, 'data');
  return needs.data && isJsonObject(data);
}

function isIfMatch(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0 && value.length <= 1024;
}

/**
 * The rules the single-document route would apply to one operation: collection name, document id and body.
 * A violation fails that operation only (its result carries the 400), not the whole batch.
 */
export function checkBatchOperation(operation: BatchOperationFields): Violation | null {
  const name = checkCollectionName(operation.collection);
  if (name) return name;
  if (operation.id !== undefined && !isDocumentId(operation.id)) return invalidDocumentId('id');
  if (operation.op === 'insert') {
    const bodyViolation = checkDocumentBody(operation.data, { allowId: true });
    if (bodyViolation) return bodyViolation;
    const bodyId = operation.data?._id;
    if (operation.id !== undefined && bodyId !== undefined && bodyId !== operation.id) {
      return {
        code: 'validation_error',
        message: '"id" and "data._id" name different documents',
        details: { field: 'id' },
      };
    }
    return null;
  }
  if (operation.op === 'update' || operation.op === 'patch')
    return checkDocumentBody(operation.data, { allowId: false });
  return null;
}

/**
 * The first operation whose route needs a scope the caller lacks, with the scopes it needs; null when the
 * caller may run every operation. `granted` is the caller's effective scopes (see `effectiveScopes`).
 */
export function missingBatchScope(
  operations: readonly Pick<BatchOperationFields, 'op'>[],
  granted: ReadonlySet<string>,
): { index: number; required: readonly string[] } | null {
  for (const [index, operation] of operations.entries()) {
    const required = batchOperationRoute(operation.op).scopes;
    if (!satisfiesScope(granted, required)) return { index, required };
  }
  return null;
}
