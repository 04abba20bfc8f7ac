import {
  type BatchOperationFields,
  batchOperationRoute,
  type batchRoutes,
  checkBatchOperation,
  checkDocumentSize,
  missingBatchScope,
  parseBatchRequest,
} from '@dataplatform/contract';
import { type Answer, ApiError, errorAnswer } from './answers.js';
import { documentOperations, type MockModel, type Operation } from './document-operations.js';
import type { DocumentStore } from './document-store.js';
import { BODY_LIMIT_BYTES } from './request-input.js';

/** One operation of a batch, run by its single-document route's behaviour so that both answer alike. */
function runOne(
  operation: BatchOperationFields,
  store: DocumentStore,
  model: MockModel,
  scopes: ReadonlySet<string>,
): Answer {
  const violation =
    checkBatchOperation(operation) ??
    (operation.data === undefined
      ? null
      : checkDocumentSize(JSON.stringify(operation.data), BODY_LIMIT_BYTES));
  if (violation) return errorAnswer(ApiError.fromViolation(violation));
  const { collection, id, data } = operation;
  const params: Record<string, string> = id === undefined ? { collection } : { collection, id };
  // On insert, `id` names the document as `data._id` would.
  const body = operation.op === 'insert' && id !== undefined ? { ...data, _id: id } : data;
  try {
    const conditions = operation.ifMatch === undefined ? undefined : { ifMatch: operation.ifMatch };
    return documentOperations[batchOperationRoute(operation.op).id](
      { params, query: {}, body, scopes, conditions },
      store,
      model,
    );
  } catch (error) {
    if (error instanceof ApiError) return errorAnswer(error);
    throw error;
  }
}

/**
 * `POST /api/v1/data/batch`: the body's shape, then every operation's scope, are checked before anything runs;
 * with `transaction: true` the first failure puts the store back as it was and answers 409 transaction_aborted.
 */
const batch: Operation = ({ body, scopes }, store, model) => {
  const request = parseBatchRequest(body);
  if ('code' in request) throw ApiError.fromViolation(request);
  const { operations, transaction } = request;
  const missing = missingBatchScope(operations, scopes);
  if (missing) {
    throw new ApiError('insufficient_scope', undefined, {
      index: missing.index,
      required: [...missing.required],
    });
  }
  const before = transaction
    ? { documents: store.snapshot(), deliveries: model.webhooks.snapshot() }
    : undefined;
  const results = operations.map((operation, index) => {
    const answer = runOne(operation, store, model, scopes);
    if (!answer.isError) return { index, status: answer.status, data: answer.body };
    if (before) {
      store.restore(before.documents);
      model.webhooks.restore(before.deliveries);
      const { code, error } = answer.body as { code: string; error: string };
      throw new ApiError(
        'transaction_aborted',
        `Transaction aborted: operation ${index} (${operation.op}) failed with ${answer.status} ${code}: ${error}. Nothing was applied`,
        { index, status: answer.status, code },
      );
    }
    return { index, status: answer.status, error: answer.body };
  });
  return { status: 200, body: { results, transaction } };
};

/** The batch route's behaviour, by operation id. */
export const batchOperations: Record<(typeof batchRoutes)[number]['id'], Operation> = {
  'data.batch': batch,
};
