import type { Violation } from '../semantics/documents.js';
import { type AstNode, isNode } from './ast.js';

/** A statement the helper cannot run; `position` is the 1-based character where the problem starts. */
export class SqlError extends Error {
  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(position === undefined ? message : `${message} at position ${position}`);
    this.name = 'SqlError';
  }

  /** The 400 `invalid_sql` answer for this error. */
  toViolation(): Violation {
    return {
      code: 'invalid_sql',
      message: this.message,
      ...(this.position === undefined ? {} : { details: { position: this.position } }),
    };
  }
}

/** The 1-based position where a node starts, or `fallback` when the parser gave the node no location. */
export function positionOf(node: unknown, fallback?: number): number | undefined {
  if (isNode(node) && node.loc) return node.loc.start.offset + 1;
  return fallback;
}

/** Throws an SqlError pointing at `node` (or at `fallback` when the node has no location). */
export function fail(message: string, node?: AstNode | unknown, fallback?: number): never {
  throw new SqlError(message, positionOf(node, fallback));
}
