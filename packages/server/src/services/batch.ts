import {
  batchOperationRoute,
  errorCodes,
  type JsonObject,
  missingBatchScope,
  type Violation,
} from '@dataplatform/contract';
import { storedText } from '../document-text.js';
import { ApiError } from '../http/errors.js';
import type { DocumentOperation, OperationResult } from '../storage/documents.js';
import type { Storage } from '../storage/types.js';
import { type PlannedOperation, planError } from './batch-plan.js';
import type { BatchPlanner } from './batch-planner.js';
import {
  deleteOperation,
  failureError,
  fieldsOf,
  nextId,
  patchOperation,
  replaceOperation,
} from './document-operations.js';
import {
  type Answer,
  type IdempotencyContext,
  recordInput,
  replayAfterRace,
  replayOf,
} from './idempotency.js';
import type { Guard, SchemaGuards } from './schema-guards.js';

const REFUSED: DocumentOperation = { kind: 'refused' };

/**
 * The storage operation of a planned operation; inserts without an id get one here, in arrival order. A document
 * that does not match its collection's strict validator is refused where it stands.
 */
function toStorage(
  operation: PlannedOperation,
  now: string,
  guards: ReadonlyMap<string, Guard>,
): DocumentOperation {
  const { collection, id, text, ifMatch } = operation;
  if (operation.violation) return REFUSED;
  const guard = guards.get(collection);
  if (guard && (operation.op === 'insert' || operation.op === 'update')) {
    const violation = guard(fieldsOf(JSON.parse(text!) as JsonObject));
    if (violation) return { kind: 'refused', violation };
  }
  switch (operation.op) {
    case 'insert':
      return {
        kind: 'insert',
        collection,
        row: { id: id ?? nextId(), data: text!, createdAt: now, updatedAt: now },
      };
    case 'get':
      return { kind: 'get', collection, id: id! };
    case 'update':
      return replaceOperation(collection, id!, text!, now, ifMatch);
    case 'patch':
      return patchOperation(collection, id!, JSON.parse(text!), now, guard, ifMatch);
    case 'delete':
      return deleteOperation(collection, id!, ifMatch);
  }
}
/** What one failed operation answers: the error the single-document route would have given. */
function failureOf(
  operation: PlannedOperation,
  result: Extract<OperationResult, { ok: false }>,
): { status: number; error: ApiError } {
  const violation: Violation | undefined =
    (result.reason === 'refused' ? result.violation : undefined) ?? operation.violation;
  const error =
    result.reason === 'refused'
      ? new ApiError(violation!.code, violation!.message, violation!.details)
      : failureError(result.reason, operation.collection, operation.id ?? '');
  return { status: errorCodes[error.code].status, error };
}

/** The JSON text of one result, composed around the stored document's text without parsing it again. */
function resultText(index: number, operation: PlannedOperation, result: OperationResult): string {
  if (result.ok) {
    const status = batchOperationRoute(operation.op).success.status;
    return `{"index":${index},"status":${status},"data":${storedText(result)}}`;
  }
  const { status, error } = failureOf(operation, result);
  const body = { error: error.message, code: error.code, details: error.details };
  return `{"index":${index},"status":${status},"error":${JSON.stringify(body)}}`;
}

/** The batch route: up to 1000 document operations, each on its own or all in one transaction. */
export class BatchService {
  constructor(
    private readonly storage: Storage,
    private readonly planner: BatchPlanner,
    private readonly guards: SchemaGuards,
  ) {}

  /**
   * Runs a batch body (its JSON text) for a caller holding the `granted` (effective) scopes: 200 with one result per
   * operation, 400 `invalid_batch`, 403 `insufficient_scope` before anything runs, or 409 `transaction_aborted`.
   */
  async run(
    clusterId: string,
    raw: string,
    granted: ReadonlySet<string>,
    idem: IdempotencyContext | null,
  ): Promise<Answer> {
    const plan = await this.planner.plan(raw);
    if (!plan.ok) throw planError(plan);
    const { operations, transaction } = plan;
    const missing = missingBatchScope(operations, granted);
    if (missing) {
      const { index, required } = missing;
      throw new ApiError(
        'insufficient_scope',
        `Insufficient permissions for operation: operation ${index} (${operations[index]!.op}) needs ${required.join(' or ')}`,
        { index, required },
      );
    }
    const earlier = idem && (await replayOf(this.storage, idem));
    if (earlier) return earlier;

    const now = new Date().toISOString();
    const guards = await this.guards.ofAll(
      clusterId,
      operations.filter((operation) => !operation.violation).map((operation) => operation.collection),
    );
    const planned = operations.map((operation) => toStorage(operation, now, guards));
    let text: string | undefined;
    const compose = (results: readonly OperationResult[]) => {
      const parts = results.map((result, i) => resultText(i, operations[i]!, result));
      text = `{"results":[${parts.join(',')}],"transaction":${transaction}}`;
      return text;
    };
    const outcome = await this.storage.documents.apply(clusterId, planned, {
      atomic: transaction,
      idempotency: idem ? recordInput(idem, 200, compose) : undefined,
    });
    if (outcome.ok) return { status: 200, body: text ?? compose(outcome.results), replayed: false };
    if (outcome.reason === 'idempotency_race') return replayAfterRace(this.storage, idem!);
    const { index } = outcome;
    const operation = operations[index]!;
    const failure = failureOf(operation, outcome.result as Extract<OperationResult, { ok: false }>);
    throw new ApiError(
      'transaction_aborted',
      `Transaction aborted: operation ${index} (${operation.op}) failed with ${failure.status} ${failure.error.code}: ${failure.error.message}. Nothing was applied`,
      { index, status: failure.status, code: failure.error.code },
    );
  }
}
