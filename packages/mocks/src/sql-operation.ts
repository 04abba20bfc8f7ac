import { isJsonObject, SqlRequest, type sqlRoutes } from '@dataplatform/contract';
import { evaluate, parseSql } from '@dataplatform/contract/sql';
import { ApiError } from './answers.js';
import type { Operation } from './document-operations.js';

/** The SQL helper: the contract's parser and reference evaluator over the in-memory documents. */
const sql: Operation = ({ body }, store) => {
  if (!isJsonObject(body))
    throw new ApiError('invalid_body', 'Body must be a JSON object: { "sql": "SELECT …" }');
  const parsed = SqlRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw new ApiError('validation_error', `Invalid body field "${field}": ${issue.message}`, {
      in: 'body',
      field,
    });
  }
  const query = parseSql(parsed.data.sql, parsed.data.params ?? []);
  if ('code' in query) throw ApiError.fromViolation(query);
  return { status: 200, body: { data: evaluate(query, store.list(query.collection)), query } };
};

/** The behaviour of the SQL routes, by operation id. */
export const sqlOperations: Record<(typeof sqlRoutes)[number]['id'], Operation> = { 'data.sql': sql };
