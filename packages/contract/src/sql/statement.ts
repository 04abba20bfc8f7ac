import { SQL_MAX_LIMIT } from '../schemas/sql.js';
import { checkCollectionName } from '../semantics/documents.js';
import { type AstNode, isNode } from './ast.js';
import { fail, positionOf } from './errors.js';

/** Refuses the clauses of SELECT that the helper does not run, naming each one. */
export function refuseClauses(statement: AstNode): void {
  // Clause nodes often carry no location; then the message names the clause without a misleading position.
  const at = undefined;
  if (statement.with) fail('WITH is not supported', statement.with, at);
  if (statement._next || statement.set_op) {
    fail(`${String(statement.set_op ?? 'UNION').toUpperCase()} is not supported`, statement._next, at);
  }
  if (isNode(statement.into) && statement.into.position)
    fail('SELECT … INTO is not supported', undefined, at);
  if (statement.window) fail('WINDOW is not supported', statement.window, at);
  if (statement.options) fail('SELECT options are not supported', undefined, at);
  if (statement.for_update || statement.locking_read) fail('FOR UPDATE is not supported', undefined, at);
}

/** The one collection after FROM: no joins, subqueries, aliases or schema names. */
export function collectionOf(statement: AstNode): string {
  const from = statement.from;
  if (!Array.isArray(from) || from.length === 0) fail('FROM <collection> is missing', statement);
  const [first, second] = from as AstNode[];
  if (second) {
    if (second.join) fail('JOIN is not supported: a query reads one collection', second);
    fail('A query reads one collection: FROM takes a single name', second);
  }
  if (!isNode(first) || first.expr || typeof first.table !== 'string') {
    fail('Subqueries are not supported: FROM takes a collection name', first);
  }
  if (first.db || first.schema) fail('Write the collection name alone, without a schema', first);
  if (first.as) fail('Collection aliases are not supported: nested fields are written a.b', first);
  const violation = checkCollectionName(first.table);
  if (violation) fail(violation.message, first);
  return first.table;
}

function wholeNumber(node: unknown, what: string, at: number | undefined): number {
  const value = isNode(node) && node.type === 'number' ? Number(String(node.value)) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 0) fail(`${what} takes a whole number such as 10`, node, at);
  return value;
}

/** LIMIT and OFFSET, in either order; undefined when absent. */
export function limitsOf(statement: AstNode): { limit?: number; skip?: number } {
  const clause = statement.limit;
  const at = positionOf(clause);
  let limitNode: unknown;
  let offsetNode: unknown;
  if (isNode(clause) && Array.isArray(clause.value) && clause.value.length > 0) {
    if (clause.seperator === 'offset') {
      // "LIMIT n OFFSET m" arrives as [n, m]; a leading "OFFSET m" (optionally followed by LIMIT) as [m].
      if (clause.value.length === 2) [limitNode, offsetNode] = clause.value;
      else [offsetNode] = clause.value;
    } else if (clause.seperator === '') {
      [limitNode] = clause.value;
    } else {
      fail('Write LIMIT n OFFSET m', clause, at);
    }
  }
  const trailing = statement._limit;
  if (isNode(trailing) && Array.isArray(trailing.value) && trailing.value.length > 0) {
    [limitNode] = trailing.value;
  }
  const out: { limit?: number; skip?: number } = {};
  if (limitNode !== undefined) {
    out.limit = wholeNumber(limitNode, 'LIMIT', at);
    if (out.limit > SQL_MAX_LIMIT)
      fail(`LIMIT ${out.limit} is over the maximum of ${SQL_MAX_LIMIT}`, clause, at);
  }
  if (offsetNode !== undefined) out.skip = wholeNumber(offsetNode, 'OFFSET', at);
  return out;
}
