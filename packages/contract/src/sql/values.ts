import type { SqlValue } from '../schemas/sql.js';
import { type AstNode, isNode } from './ast.js';
import { fail, SqlError } from './errors.js';

/** Checks a string value: no NUL character (no engine stores one alike) and well-formed Unicode. */
export function checkText(text: string, what: string, at?: number): void {
  if (text.includes('\u0000')) throw new SqlError(`${what} contains a NUL character (U+0000)`, at);
  if (hasLoneSurrogate(text)) throw new SqlError(`${what} is not well-formed Unicode (a lone surrogate)`, at);
}

function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return true;
  }
  return false;
}

/**
 * Binds `?` and `$n` placeholders to `params`. A statement uses one style; `?` are numbered in the order
 * they appear, `$n` name the n-th value. Every value must be used, so a miscounted list is caught.
 */
export class Params {
  #style: '?' | '$' | undefined;
  #next = 0;
  readonly #used = new Set<number>();

  constructor(private readonly values: readonly unknown[]) {}

  /** The value of a placeholder node, or undefined when the node is not a placeholder. */
  take(node: AstNode, at: number | undefined): SqlValue | undefined {
    let index: number;
    let label: string;
    if (node.type === 'origin' && node.value === '?') {
      this.#setStyle('?', at);
      index = this.#next++;
      label = `? number ${index + 1}`;
    } else if (node.type === 'var' && node.prefix === '$') {
      const n = node.name;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
        throw new SqlError(`$${String(n)} is not a parameter: parameters are ?, or $1, $2, …`, at);
      }
      this.#setStyle('$', at);
      index = n - 1;
      label = `$${n}`;
    } else {
      return undefined;
    }
    if (index >= this.values.length) {
      throw new SqlError(
        `Parameter ${label} has no value: params has ${this.values.length} value${this.values.length === 1 ? '' : 's'}`,
        at,
      );
    }
    this.#used.add(index);
    return checkParam(this.values[index], index);
  }

  /** Throws when some value of `params` was never used. */
  finish(): void {
    const count = this.values.length;
    if (this.#used.size === count) return;
    if (this.#style !== '$') {
      throw new SqlError(
        `The statement has ${this.#next} "?" parameter${this.#next === 1 ? '' : 's'} but params has ${count} value${count === 1 ? '' : 's'}`,
      );
    }
    const unused = [...Array(count).keys()].find((i) => !this.#used.has(i))!;
    throw new SqlError(`params has ${count} values but $${unused + 1} is never used`);
  }

  #setStyle(style: '?' | '$', at: number | undefined): void {
    if (this.#style && this.#style !== style) {
      throw new SqlError('Use either ? or $n parameters in one statement, not both', at);
    }
    this.#style = style;
  }
}

function checkParam(value: unknown, index: number): SqlValue {
  const what = `params[${index}]`;
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new SqlError(`${what} is not a finite number`);
    return value;
  }
  if (typeof value === 'string') {
    checkText(value, what);
    return value;
  }
  throw new SqlError(`${what} must be a string, number, boolean or null`);
}

/** Decodes a '…' literal from the statement text: `''` stands for one quote, a backslash is an ordinary character. */
export function stringLiteral(node: AstNode, sql: string, at: number | undefined): string {
  if (!node.loc) fail('Unsupported string literal', node, at);
  const text = sql.slice(node.loc.start.offset, node.loc.end.offset);
  if (text.length < 2 || !text.startsWith("'") || !text.endsWith("'")) {
    fail('Unsupported string literal: use single quotes', node, at);
  }
  let out = '';
  for (let i = 1; i < text.length - 1; i++) {
    const ch = text[i]!;
    if (ch === "'") {
      // node-sql-parser also reads \' as an escaped quote; standard SQL does not, so such a literal is refused.
      if (text[i + 1] !== "'" || i + 1 === text.length - 1) {
        fail(
          "A quote inside a string is written twice ('') and a backslash is an ordinary character",
          node,
          at,
        );
      }
      i++;
    }
    out += ch;
  }
  checkText(out, 'A string literal', at);
  return out;
}

/** A number literal, possibly negated with a unary minus. */
export function numberLiteral(node: AstNode, at: number | undefined): number | undefined {
  let negate = false;
  let current: unknown = node;
  if (node.type === 'unary_expr' && node.operator === '-' && isNode(node.expr)) {
    negate = true;
    current = node.expr;
  }
  if (!isNode(current) || (current.type !== 'number' && current.type !== 'bigint')) return undefined;
  const value = Number(String(current.value));
  if (!Number.isFinite(value)) fail(`Number ${String(current.value)} is out of range`, node, at);
  return negate ? -value : value;
}
