import type { SqlCondition } from '../schemas/sql.js';
import type { Violation } from '../semantics/documents.js';
import { isNode } from './ast.js';
import { condition } from './conditions.js';
import { SqlError } from './errors.js';
import { whereTarget } from './grouping.js';
import { astify } from './parse.js';
import { Params } from './values.js';

// The condition is read as the WHERE of a statement, so it has the helper's grammar exactly; positions in
// errors are moved back to the condition's own text.
const PREFIX = 'SELECT * FROM c WHERE ';

/**
 * Translates a condition alone (what follows WHERE in the SQL helper's grammar) with its parameters, or explains
 * (400 `invalid_sql`) what is wrong and where in the condition.
 * @example parseWhere("status = ? AND total > 10", ['paid'])
 */
export function parseWhere(where: string, params: readonly unknown[] = []): SqlCondition | Violation {
  try {
    return translate(where, params);
  } catch (error) {
    if (error instanceof SqlError) return shifted(error).toViolation();
    if (error instanceof RangeError) return new SqlError('The condition is nested too deeply').toViolation();
    throw error;
  }
}

function translate(where: string, values: readonly unknown[]): SqlCondition {
  if (where.includes('\u0000')) throw new SqlError('The condition contains a NUL character (U+0000)');
  if (where.trim() === '') throw new SqlError('The condition is empty');
  const sql = PREFIX + where;
  const statement = astify(sql);
  // What the grammar reads after a condition is another clause: a condition ends where the clauses begin.
  const limit = statement.limit;
  const hasLimit = isNode(limit) && Array.isArray(limit.value) && limit.value.length > 0;
  if (statement.orderby || statement.groupby || statement.having || hasLimit || statement._next) {
    throw new SqlError('A condition stands alone: ORDER BY, GROUP BY, HAVING, LIMIT and UNION do not apply');
  }
  if (!statement.where) throw new SqlError('The condition is empty');
  const params = new Params(values);
  const result = condition(statement.where, { sql, params, target: whereTarget }) as SqlCondition;
  params.finish();
  return result;
}

/** The same error, its position counted in the condition rather than in the statement around it. */
function shifted(error: SqlError): SqlError {
  const message = error.message.replace(/ at position \d+$/, '');
  if (error.position === undefined || error.position <= PREFIX.length) return new SqlError(message);
  return new SqlError(message, error.position - PREFIX.length);
}
