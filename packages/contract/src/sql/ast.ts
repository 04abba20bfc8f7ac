/** Offsets of a node in the statement, as node-sql-parser reports them with `includeLocations`. */
export interface Loc {
  start: { offset: number };
  end: { offset: number };
}

/**
 * The few fields of node-sql-parser's AST this translator reads. The AST differs between node kinds and
 * dialects, so every field is optional and checked before use; a shape not recognised is refused.
 */
export interface AstNode {
  type?: unknown;
  loc?: Loc;
  value?: unknown;
  name?: unknown;
  operator?: unknown;
  left?: unknown;
  right?: unknown;
  expr?: unknown;
  args?: unknown;
  table?: unknown;
  schema?: unknown;
  db?: unknown;
  column?: unknown;
  collate?: unknown;
  prefix?: unknown;
  escape?: unknown;
  ast?: unknown;
  [key: string]: unknown;
}

/** True for an object node of the AST. */
export function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The name of a function node as written, e.g. `LOWER`. */
export function functionName(node: AstNode): string {
  const name = node.name;
  if (typeof name === 'string') return name;
  if (isNode(name) && Array.isArray(name.name)) {
    return name.name.map((part: unknown) => (isNode(part) ? String(part.value) : String(part))).join('.');
  }
  return 'function';
}
