import {
  type BatchOperationFields,
  type BatchOperationKind,
  checkBatchOperation,
  checkDocumentSize,
  checkJsonNumbers,
  parseBatchRequest,
  type Violation,
} from '@dataplatform/contract';
import { fieldsText } from '../document-text.js';
import { ApiError } from '../http/errors.js';
import { parseJsonText } from '../http/json-text.js';

/**
 * One operation of a batch once checked, as plain data that can cross threads: the JSON text to store is made
 * here, so the thread that writes never parses or serializes a document.
 */
export interface PlannedOperation {
  op: BatchOperationKind;
  collection: string;
  /** The document id: the operation's `id`, or on insert `data._id` (a new id is given later when neither). */
  id?: string;
  /**
   * insert: the caller's fields without `_id`; update: the new fields; patch: the merge patch. JSON text.
   * Absent for get and delete.
   */
  text?: string;
  /** update, patch and delete: the If-Match the write is conditional on. */
  ifMatch?: string;
  /** Why the operation fails on its own (a bad collection name, id or body), as the single route would say. */
  violation?: Violation;
}

/** A checked batch, or the error that refuses it as a whole. */
export type BatchPlan =
  | { ok: true; operations: PlannedOperation[]; transaction: boolean }
  | { ok: false; error: Violation };

function planned(operation: BatchOperationFields, documentLimit: number): PlannedOperation {
  const { op, collection, id, data, ifMatch } = operation;
  const violation = checkBatchOperation(operation);
  if (violation) return { op, collection, id, violation };
  if (op === 'get') return { op, collection, id };
  if (op === 'delete') return { op, collection, id, ...(ifMatch === undefined ? {} : { ifMatch }) };
  const text = op === 'insert' ? fieldsText(data!) : JSON.stringify(data);
  const tooLarge = checkDocumentSize(text, documentLimit);
  if (tooLarge) return { op, collection, id, violation: tooLarge };
  if (op === 'insert') return { op, collection, id: typeof data!._id === 'string' ? data!._id : id, text };
  return { op, collection, id, text, ...(ifMatch === undefined ? {} : { ifMatch }) };
}

/**
 * Parses and checks a batch body's text: 400 `invalid_json`, `validation_error` (an integer that JSON cannot keep
 * exactly) or `invalid_batch` for the whole, else the plan. Each document is held to what its single-document route
 * allows, `documentLimit` bytes included; a document that breaks a rule fails its operation only.
 */
export function planBatch(raw: string, documentLimit: number): BatchPlan {
  let body: unknown;
  try {
    body = parseJsonText(raw);
  } catch (error) {
    const { code, message } = error as ApiError;
    return { ok: false, error: { code, message } };
  }
  const numbers = checkJsonNumbers(raw);
  if (numbers) return { ok: false, error: numbers };
  const request = parseBatchRequest(body);
  if ('code' in request) return { ok: false, error: request };
  const operations = request.operations.map((operation) => planned(operation, documentLimit));
  return { ok: true, operations, transaction: request.transaction };
}

/** The error of a refused plan, to throw. */
export function planError(plan: Extract<BatchPlan, { ok: false }>): ApiError {
  return new ApiError(plan.error.code, plan.error.message, plan.error.details);
}
