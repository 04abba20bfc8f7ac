import type { Violation } from './documents.js';

/**
 * How deeply a document may nest objects and arrays; the document itself is level 1. The same on every engine
 * and every write path: SQLite's JSON functions stop at 1000 levels, and serializers recurse, so a limit well
 * below both keeps every stored document readable by sorting, the SQL helper and every client.
 */
export const MAX_DOCUMENT_DEPTH = 100;

/** The largest integer a JSON number keeps exactly in JavaScript and in both engines' JSON: 2^53 − 1. */
const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * A string that no engine stores as given: U+0000 (PostgreSQL's jsonb refuses it, SQLite would keep it) or a lone
 * UTF-16 surrogate (no UTF-8 form exists; it is mangled or refused by the engine). Without the `u` flag the
 * expression works on code units, which is what finds a surrogate without its partner.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what the expression looks for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function fieldPath(frames: readonly Frame[]): string {
  return frames.map((frame) => (frame.keys ? frame.keys[frame.next - 1] : String(frame.next - 1))).join('.');
}

function stringViolation(text: string, field: string, isKey: boolean): Violation {
  const what = isKey ? `The field name "${field}"` : field ? `The string at "${field}"` : 'The string';
  const reason = text.includes('\u0000')
    ? 'contains U+0000 (NUL), which is not stored'
    : 'is not well-formed Unicode (it has an unpaired surrogate)';
  return {
    code: 'validation_error',
    message: `${what} ${reason}`,
    details: { field, reason: text.includes('\u0000') ? 'nul_character' : 'unpaired_surrogate' },
  };
}

/** True when a string can be stored as given: no U+0000 and no unpaired surrogate. */
export function isStorableString(text: string): boolean {
  return !UNSTORABLE.test(text);
}

interface Frame {
  container: unknown[] | Record<string, unknown>;
  /** The object's keys; null for an array. */
  keys: string[] | null;
  /** Index of the next child to visit. */
  next: number;
}

/**
 * Checks a parsed JSON value without recursion, so any depth is safe to check: at most `maxDepth` levels of
 * objects and arrays, every string and field name storable (no U+0000, no unpaired surrogate), every number
 * finite. Returns the first 400 `validation_error`, naming the field by its dotted path, or null.
 */
export function checkJsonValue(root: unknown, maxDepth = MAX_DOCUMENT_DEPTH): Violation | null {
  const frames: Frame[] = [];
  let value = root;
  for (;;) {
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return stringViolation(value, fieldPath(frames), false);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        return {
          code: 'validation_error',
          message: `The number at "${fieldPath(frames)}" is out of range: JSON numbers here are finite 64-bit floating point`,
          details: { field: fieldPath(frames), reason: 'number_out_of_range' },
        };
      }
    } else if (typeof value === 'object' && value !== null) {
      if (frames.length >= maxDepth) {
        return {
          code: 'validation_error',
          message: `The document nests objects and arrays deeper than ${maxDepth} levels`,
          details: { field: fieldPath(frames.slice(0, maxDepth)), reason: 'too_deep', limit: maxDepth },
        };
      }
      if (Array.isArray(value)) frames.push({ container: value, keys: null, next: 0 });
      else {
        const keys = Object.keys(value);
        for (const key of keys) {
          if (UNSTORABLE.test(key)) {
            const field = fieldPath(frames);
            return stringViolation(key, field ? `${field}.${key}` : key, true);
          }
        }
        frames.push({ container: value as Record<string, unknown>, keys, next: 0 });
      }
    }
    // The next value to look at: the next child of the innermost container that has one left.
    for (;;) {
      const frame = frames.at(-1);
      if (!frame) return null;
      const { container, keys } = frame;
      if (keys) {
        if (frame.next < keys.length) {
          value = (container as Record<string, unknown>)[keys[frame.next++]!];
          break;
        }
      } else if (frame.next < (container as unknown[]).length) {
        value = (container as unknown[])[frame.next++];
        break;
      }
      frames.pop();
    }
  }
}

/**
 * Sixteen digits in a row, or an exponent of three digits: only then can a literal be past 2^53 − 1 or past the
 * largest double.
 */
const MAYBE_OUT_OF_RANGE = /\d{16}|[eE]\+?\d{3}/;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Finds number literals in a JSON text that would silently change when parsed: integers past ±(2^53 − 1), which lose
 * digits (send them as strings), and numbers past the largest double, which become infinite. Literals with a
 * fraction or an exponent are decimals and keep their usual floating-point meaning. Cheap for ordinary bodies:
 * without a run of 16 digits or a three-digit exponent anywhere, nothing is scanned.
 */
export function checkJsonNumbers(text: string): Violation | null {
  if (!MAYBE_OUT_OF_RANGE.test(text)) return null;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    if (c !== 0x2d /* - */ && !isDigit(c)) continue;
    const start = i;
    if (c === 0x2d) i++;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    const integerEnd = i;
    const next = text.charCodeAt(i);
    const isDecimal = next === 0x2e /* . */ || next === 0x65 /* e */ || next === 0x45; /* E */
    while (i < text.length && /[0-9.eE+-]/.test(text[i]!)) i++;
    const literal = text.slice(start, integerEnd);
    if (isDecimal && !Number.isFinite(Number(text.slice(start, i)))) {
      return {
        code: 'validation_error',
        message: `The number ${text.slice(start, i)} is out of range: JSON numbers here are finite 64-bit floating point`,
        details: { reason: 'number_out_of_range', value: text.slice(start, i) },
      };
    }
    if (
      !isDecimal &&
      literal.replace('-', '').length >= 16 &&
      Math.abs(Number(literal)) > MAX_EXACT_INTEGER
    ) {
      return {
        code: 'validation_error',
        message: `The number ${literal} cannot be kept exactly: integers must lie within ±${MAX_EXACT_INTEGER} (send larger ones as strings)`,
        details: { reason: 'unsafe_integer', value: literal },
      };
    }
    i--;
  }
  return null;
}

/** Bytes of a string in UTF-8, counted without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is four bytes: two for each half.
    bytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return bytes;
}

/**
 * Checks one document's JSON text against the body limit of the single-document routes, so that a batch stores
 * nothing a single create would refuse: 413 `payload_too_large`, or null.
 */
export function checkDocumentSize(text: string, limit: number): Violation | null {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: most documents are decided without counting.
  if (text.length * 3 <= limit) return null;
  const bytes = utf8Length(text);
  if (bytes <= limit) return null;
  return {
    code: 'payload_too_large',
    message: `The document is ${bytes} bytes of JSON, over the limit of ${limit} bytes for one document`,
    details: { limit, bytes },
  };
}
