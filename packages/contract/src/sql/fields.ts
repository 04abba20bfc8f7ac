import { type AstNode, isNode } from './ast.js';
import { fail } from './errors.js';
import { checkText } from './values.js';

const IDENTIFIER_TYPES = new Set(['default', 'double_quote_string', 'backticks_quote_string']);

/** One segment of a field path: a bare, "double-quoted" or `backticked` identifier. */
function segment(part: unknown, node: AstNode, at: number | undefined): string {
  let name: unknown = part;
  if (isNode(part)) {
    if (part.type === 'single_quote_string') {
      // node-sql-parser reads 'x\' (a backslash before the closing quote) this way.
      fail('Unsupported string literal: to end a string with a backslash, pass it as a parameter', node, at);
    }
    if (!IDENTIFIER_TYPES.has(part.type as string)) fail('Unsupported field name', node, at);
    name = part.value;
  }
  if (typeof name !== 'string' || name === '') fail('Empty field name', node, at);
  checkText(name, 'A field name', at);
  return name;
}

/** Flattens node-sql-parser's `a.b.c.d` chain (nested binary "." nodes) into its segments. */
function dotted(part: unknown, node: AstNode, at: number | undefined): string[] {
  if (isNode(part) && part.type === 'binary_expr' && part.operator === '.') {
    return [...dotted(part.left, node, at), ...dotted(part.right, node, at)];
  }
  return [segment(part, node, at)];
}

/**
 * The field path a node names, or undefined when it is not a field reference. A double-quoted name is a field,
 * as in standard SQL (node-sql-parser reads a lone "x" as a string); strings take single quotes.
 */
export function fieldPath(node: AstNode, at: number | undefined): string[] | undefined {
  if (node.type === 'double_quote_string' || node.type === 'backticks_quote_string') {
    return [segment(node, node, at)];
  }
  if (node.type !== 'column_ref') return undefined;
  if (node.collate) fail('COLLATE is not supported', node, at);
  if (node.column === '*') fail('* can only stand alone in the select list', node, at);
  const prefix = [node.db, node.schema, node.table].filter((p) => p !== null && p !== undefined && p !== '');
  const column = node.column;
  let tail: string[];
  if (isNode(column) && 'expr' in column) tail = dotted(column.expr, node, at);
  else tail = [segment(column, node, at)];
  return [...prefix.map((p) => segment(p, node, at)), ...tail];
}
