import type { SqlAggregate, SqlTarget } from '../schemas/sql.js';
import { type AstNode, functionName, isNode } from './ast.js';
import { fail, positionOf } from './errors.js';
import { fieldPath } from './fields.js';

const FUNCTIONS = new Set(['count', 'sum', 'avg', 'min', 'max']);

/** True for an aggregate call such as `COUNT(*)` or `SUM(total)` (node-sql-parser's `aggr_func`). */
export function isAggregate(node: unknown): boolean {
  return isNode(node) && node.type === 'aggr_func';
}

/** Reads `COUNT(*)`, `COUNT([DISTINCT] field)`, `SUM|AVG|MIN|MAX(field)`; anything else is refused where it stands. */
export function aggregateOf(node: AstNode, parentAt: number | undefined): SqlAggregate {
  const at = positionOf(node, parentAt);
  const name = functionName(node).toUpperCase();
  const fn = name.toLowerCase();
  if (!FUNCTIONS.has(fn)) fail(`Unknown aggregate ${name}: use COUNT, SUM, AVG, MIN or MAX`, node, at);
  if (node.over)
    fail(`${name}(…) OVER is not supported: window functions are not part of the helper`, node, at);
  const args = isNode(node.args) ? node.args : undefined;
  if (args?.orderby || args?.separator) fail(`${name}(…) takes one field`, node, at);
  const expr = args?.expr;
  const distinct = typeof args?.distinct === 'string' && args.distinct.toUpperCase() === 'DISTINCT';
  if (isNode(expr) && (expr.type === 'star' || (expr.type === 'column_ref' && expr.column === '*'))) {
    if (fn !== 'count' || distinct)
      fail(`${name}(${distinct ? 'DISTINCT ' : ''}*) is not supported: only COUNT(*)`, node, at);
    return { fn: 'count' };
  }
  const path = isNode(expr) ? fieldPath(expr, positionOf(expr, at)) : undefined;
  if (!path) fail(`${name}(…) takes a field, such as ${name}(total)`, expr ?? node, at);
  if (distinct && fn !== 'count')
    fail(`DISTINCT is supported only in COUNT(DISTINCT field), not in ${name}`, node, at);
  if (fn === 'count') return distinct ? { fn, path, distinct: true } : { fn, path };
  return { fn: fn as 'sum' | 'avg' | 'min' | 'max', path };
}

/** The key of an unaliased aggregate in the answer: `COUNT(*)`, `COUNT(DISTINCT a.b)`, `SUM(total)`. */
export function aggregateText(aggregate: SqlAggregate): string {
  const name = aggregate.fn.toUpperCase();
  if (!aggregate.path) return `${name}(*)`;
  return `${name}(${'distinct' in aggregate && aggregate.distinct ? 'DISTINCT ' : ''}${aggregate.path.join('.')})`;
}

/** The text of a target for messages: the dotted field or the aggregate. */
export function targetText(target: SqlTarget): string {
  return 'path' in target ? target.path.join('.') : aggregateText(target.aggregate);
}
