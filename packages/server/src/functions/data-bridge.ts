import {
  checkBillingAllows,
  checkCollectionName,
  checkDocumentBody,
  checkJsonValue,
  errorCodes,
  invalidDocumentId,
  isDocumentId,
  parseSort,
  SqlRequest,
  type Violation,
} from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { rejectViolation, validate } from '../http/validate.js';
import type { DocumentService } from '../services/documents.js';
import type { SqlService } from '../services/sql.js';
import type { HostCall } from './sandbox.js';

/** What `ctx.data` reaches: the services of the data routes, so a function's writes fire webhooks and triggers. */
export interface DataServices {
  documents: DocumentService;
  sql: SqlService;
  /**
   * The billing status of the account the cluster is billed to, asked once per run at its first write: a
   * suspended account's functions may read but not write, as its keys (`checkBillingAllows`).
   */
  billingStatus?: (clusterId: string) => Promise<string>;
}

const WRITES = new Set(['create', 'replace', 'update', 'delete']);

/**
 * The host side of a function's `ctx.data`, acting on one cluster with the checks of the HTTP routes (collection
 * names, document ids, document bodies, the SQL helper's request), answering a JSON envelope: `{ ok, value }` or
 * `{ ok: false, code, status, message, details }`, which the sandbox throws as an error with `code` and `status`.
 */
export function dataBridge(services: DataServices, clusterId: string): HostCall {
  let billingStatus: Promise<string> | undefined;
  return async (op, argsText) => {
    try {
      const args = JSON.parse(argsText) as unknown[];
      if (!Array.isArray(args)) throw new ApiError('validation_error', 'ctx.data arguments must be a list');
      if (WRITES.has(op) && services.billingStatus) {
        billingStatus ??= services.billingStatus(clusterId);
        rejectViolation(checkBillingAllows(await billingStatus, 'data'));
      }
      return JSON.stringify({ ok: true, value: await perform(services, clusterId, op, args) });
    } catch (error) {
      const failure =
        error instanceof ApiError ? error : new ApiError('internal_error', errorCodes.internal_error.message);
      return JSON.stringify({
        ok: false,
        code: failure.code,
        status: failure.status,
        message: failure.message,
        details: failure.details,
      });
    }
  };
}

async function perform(services: DataServices, clusterId: string, op: string, args: unknown[]) {
  const { documents, sql } = services;
  switch (op) {
    case 'get':
      return parsed(await documents.get(collectionRef(clusterId, args[0]), documentId(args[1])));
    case 'list': {
      const ref = collectionRef(clusterId, args[0]);
      const options = (args[1] ?? {}) as { limit?: unknown; skip?: unknown; sort?: unknown };
      const limit = wholeNumber(options.limit ?? 50, 'limit', 1, 1000);
      const skip = wholeNumber(options.skip ?? 0, 'skip', 0, Number.MAX_SAFE_INTEGER);
      const sort = parseSort(options.sort === undefined ? undefined : String(options.sort));
      if (!Array.isArray(sort)) rejectViolation(sort as Violation);
      return parsed(await documents.list(ref, limit, skip, sort as Exclude<typeof sort, Violation>));
    }
    case 'create':
      return answerOf(await documents.create(collectionRef(clusterId, args[0]), body(args[1], true), null));
    case 'replace':
      return answerOf(
        await documents.replace(
          collectionRef(clusterId, args[0]),
          documentId(args[1]),
          body(args[2], false),
          null,
        ),
      );
    case 'update':
      return answerOf(
        await documents.update(
          collectionRef(clusterId, args[0]),
          documentId(args[1]),
          body(args[2], false),
          null,
        ),
      );
    case 'delete':
      return answerOf(await documents.delete(collectionRef(clusterId, args[0]), documentId(args[1]), null));
    case 'sql': {
      const request = validate(SqlRequest, { sql: args[0], params: args[1] ?? [] }, 'body');
      return parsed(await sql.run(clusterId, request));
    }
    default:
      throw new ApiError('validation_error', `ctx.data has no operation "${op}"`);
  }
}

function collectionRef(clusterId: string, collection: unknown) {
  if (typeof collection !== 'string')
    throw new ApiError('validation_error', 'The collection must be a string');
  rejectViolation(checkCollectionName(collection));
  return { clusterId, collection };
}

function documentId(id: unknown): string {
  if (!isDocumentId(id)) rejectViolation(invalidDocumentId('id'));
  return id as string;
}

function body(value: unknown, allowId: boolean): Record<string, unknown> {
  rejectViolation(checkJsonValue(value));
  rejectViolation(checkDocumentBody(value, { allowId }));
  return value as Record<string, unknown>;
}

function wholeNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new ApiError('validation_error', `${field} must be a whole number from ${min} to ${max}`, {
      field,
    });
  return value;
}

function answerOf(answer: { status: number; body: string }): unknown {
  return JSON.parse(answer.body);
}

function parsed(text: string): unknown {
  return JSON.parse(text);
}
