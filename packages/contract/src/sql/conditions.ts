import { likeTokens } from '../like.js';
import type { SqlHaving, SqlTarget, SqlValue } from '../schemas/sql.js';
import { targetText } from './aggregates.js';
import { type AstNode, functionName, isNode } from './ast.js';
import { fail, positionOf } from './errors.js';
import { numberLiteral, type Params, stringLiteral } from './values.js';

/**
 * What a translator needs besides the node: the statement text (for literals), the parameters, and what a
 * field or an aggregate may stand for in this clause (WHERE reads document fields, HAVING grouped fields and
 * aggregates); `target` returns undefined for a node that is neither.
 */
export interface Context {
  sql: string;
  params: Params;
  target: (node: AstNode, at: number | undefined) => SqlTarget | undefined;
}

type Condition = SqlHaving;
type Operand = { kind: 'field'; target: SqlTarget } | { kind: 'value'; value: SqlValue };

const COMPARISONS: Record<string, { op: Condition['op']; flipped: Condition['op'] }> = {
  '=': { op: 'eq', flipped: 'eq' },
  '!=': { op: 'ne', flipped: 'ne' },
  '<>': { op: 'ne', flipped: 'ne' },
  '<': { op: 'lt', flipped: 'gt' },
  '<=': { op: 'lte', flipped: 'gte' },
  '>': { op: 'gt', flipped: 'lt' },
  '>=': { op: 'gte', flipped: 'lte' },
};

// Deeper trees than this are refused rather than risking the stack of every engine that evaluates them.
const MAX_DEPTH = 64;

/** A field, a literal or a bound parameter. */
export function operand(node: unknown, ctx: Context, at: number | undefined): Operand {
  if (!isNode(node)) fail('Unsupported expression', undefined, at);
  const where = positionOf(node, at);
  if (isNode(node.ast) || node.type === 'select') fail('Subqueries are not supported', node, at);
  const target = ctx.target(node, where);
  if (target) return { kind: 'field', target };
  const param = ctx.params.take(node, where);
  if (param !== undefined) return { kind: 'value', value: param };
  switch (node.type) {
    case 'single_quote_string':
      return { kind: 'value', value: stringLiteral(node, ctx.sql, where) };
    case 'bool':
      return { kind: 'value', value: node.value === true };
    case 'null':
      return { kind: 'value', value: null };
  }
  if (node.type === 'function') fail(`Unknown function ${functionName(node)}`, node, at);
  const number = numberLiteral(node, where);
  if (number !== undefined) return { kind: 'value', value: number };
  if (node.type === 'unary_expr') fail(`Operator ${String(node.operator)} is not supported here`, node, at);
  if (node.type === 'binary_expr') fail(`Operator ${String(node.operator)} is not supported here`, node, at);
  fail('Unsupported expression: use a field, a literal or a parameter', node, at);
}

function valueOperand(node: unknown, ctx: Context, at: number | undefined, role: string): SqlValue {
  const result = operand(node, ctx, at);
  if (result.kind === 'field') {
    fail(
      `${role} must be a value, not the field ${targetText(result.target)} (strings take single quotes: 'text')`,
      node,
      at,
    );
  }
  return result.value;
}

function fieldOf(node: unknown, ctx: Context, at: number | undefined, what: string): SqlTarget {
  const result = operand(node, ctx, at);
  if (result.kind !== 'field') fail(`${what} needs a field on its left`, node, at);
  return result.target;
}

function noBooleans(values: SqlValue[], what: string, at: number | undefined): void {
  if (values.some((v) => typeof v === 'boolean')) {
    fail(`${what} does not compare booleans: use = or != with true and false`, undefined, at);
  }
}

function listValues(node: unknown, ctx: Context, at: number | undefined, role: string): SqlValue[] {
  if (!isNode(node) || node.type !== 'expr_list' || !Array.isArray(node.value)) {
    fail(`${role} needs a list of values in parentheses`, node, at);
  }
  return node.value.map((item: unknown) => valueOperand(item, ctx, at, `Each value of ${role}`));
}

function comparison(node: AstNode, ctx: Context, at: number | undefined): Condition {
  const { op, flipped } = COMPARISONS[node.operator as string]!;
  const left = operand(node.left, ctx, at);
  const right = operand(node.right, ctx, at);
  if (left.kind === 'field' && right.kind === 'field') {
    fail(
      `Compare a field with a value, not with another field (${targetText(right.target)}); strings take single quotes`,
      node,
      at,
    );
  }
  if (left.kind === 'value' && right.kind === 'value') fail('A condition must name a field', node, at);
  const [target, value, finalOp] =
    left.kind === 'field'
      ? [left.target, (right as { value: SqlValue }).value, op]
      : [(right as { target: SqlTarget }).target, left.value, flipped];
  if (finalOp !== 'eq' && finalOp !== 'ne') noBooleans([value], `Operator ${String(node.operator)}`, at);
  return { op: finalOp, ...target, value } as Condition;
}

function predicate(node: AstNode, ctx: Context, at: number | undefined): Condition {
  const operator = String(node.operator);
  if (operator in COMPARISONS) return comparison(node, ctx, at);
  switch (operator) {
    case 'IS':
    case 'IS NOT': {
      const target = fieldOf(node.left, ctx, at, operator);
      if (!isNode(node.right) || node.right.type !== 'null') {
        fail(`${operator} takes only NULL; compare booleans with = true or = false`, node, at);
      }
      return { op: operator === 'IS' ? 'isNull' : 'isNotNull', ...target };
    }
    case 'IN':
    case 'NOT IN': {
      const target = fieldOf(node.left, ctx, at, operator);
      const values = listValues(node.right, ctx, at, operator);
      return { op: operator === 'IN' ? 'in' : 'nin', ...target, values };
    }
    case 'LIKE':
    case 'NOT LIKE': {
      const target = fieldOf(node.left, ctx, at, operator);
      if (isNode(node.right) && node.right.escape) {
        fail('ESCAPE is not supported: a backslash escapes % and _ in LIKE patterns', node, at);
      }
      const value = valueOperand(node.right, ctx, at, `The pattern of ${operator}`);
      if (typeof value !== 'string') fail(`${operator} needs a string pattern`, node, at);
      if (!likeTokens(value)) fail(`The pattern of ${operator} ends with a lone backslash`, node, at);
      return { op: operator === 'LIKE' ? 'like' : 'notLike', ...target, value };
    }
    case 'BETWEEN':
    case 'NOT BETWEEN': {
      const target = fieldOf(node.left, ctx, at, operator);
      const values = listValues(node.right, ctx, at, operator);
      if (values.length !== 2) fail(`${operator} takes two values: BETWEEN low AND high`, node, at);
      noBooleans(values, operator, at);
      const between: Condition = { op: 'between', ...target, values };
      return operator === 'BETWEEN' ? between : { op: 'not', condition: between };
    }
  }
  fail(`Operator ${operator} is not supported in WHERE`, node, at);
}

/**
 * Translates a WHERE or HAVING expression into a condition tree; anything outside the documented grammar
 * throws. Leaves read what `ctx.target` allows: only fields in WHERE.
 */
export function condition(node: unknown, ctx: Context, depth = 0, parentAt?: number): Condition {
  if (!isNode(node)) fail('Unsupported condition', undefined, parentAt);
  const at = positionOf(node, parentAt);
  if (depth > MAX_DEPTH) fail(`Conditions nest at most ${MAX_DEPTH} levels deep`, node, at);
  if (isLogical(node)) return logical(node, ctx, depth, at);
  if (node.type === 'unary_expr' && node.operator === 'NOT') {
    return { op: 'not', condition: condition(node.expr, ctx, depth + 1, at) };
  }
  if (node.type === 'function' && functionName(node).toUpperCase() === 'NOT') {
    const args = isNode(node.args) && Array.isArray(node.args.value) ? node.args.value : [];
    if (args.length !== 1) fail('NOT takes one condition', node, at);
    return { op: 'not', condition: condition(args[0], ctx, depth + 1, at) };
  }
  if (node.type === 'binary_expr') return predicate(node, ctx, at);
  const single = operand(node, ctx, at);
  if (single.kind === 'field') {
    fail(
      `A condition needs a comparison: write ${targetText(single.target)} = true, or IS NOT NULL`,
      node,
      at,
    );
  }
  fail('A condition must compare a field with a value', node, at);
}

type Logical = AstNode & { operator: 'AND' | 'OR'; left: unknown; right: unknown; parentheses?: boolean };

function isLogical(node: unknown): node is Logical {
  return isNode(node) && node.type === 'binary_expr' && (node.operator === 'AND' || node.operator === 'OR');
}

/**
 * A run of AND and OR without parentheses between them. The parser nests such a run without precedence (it
 * reads `a AND b OR c` as `a AND (b OR c)`), so the operands are read back in their written order and grouped as
 * SQL defines: AND binds tighter than OR. A parenthesized part is one operand, translated on its own.
 */
function logical(node: Logical, ctx: Context, depth: number, at: number | undefined): Condition {
  const operands: unknown[] = [];
  const operators: ('AND' | 'OR')[] = [];
  const spread = (part: unknown, top: boolean): void => {
    if (isLogical(part) && (top || !part.parentheses)) {
      spread(part.left, false);
      operators.push(part.operator);
      spread(part.right, false);
    } else operands.push(part);
  };
  spread(node, true);
  const translated = operands.map((operand) => condition(operand, ctx, depth + 1, positionOf(operand, at)));
  const groups: Condition[][] = [[translated[0]!]];
  operators.forEach((operator, i) => {
    if (operator === 'AND') groups.at(-1)!.push(translated[i + 1]!);
    else groups.push([translated[i + 1]!]);
  });
  return joined(
    'or',
    groups.map((group) => joined('and', group)),
  );
}

/** `conditions` joined by `op`, a child of the same `op` merged in: one node per run reads better in the answer. */
function joined(op: 'and' | 'or', conditions: Condition[]): Condition {
  if (conditions.length === 1) return conditions[0]!;
  const flat = conditions.flatMap((c) => (c.op === op ? (c as { conditions: Condition[] }).conditions : [c]));
  return { op, conditions: flat } as Condition;
}
