import type { ImportFormat } from '@dataplatform/sdk';
import { csvRowCounter } from './csv-rows.js';

/**
 * Counts the rows of an import's source as the server's parser for the format reads them (docs/import.md), so
 * the progress of `dp upload` ends at the count the job reports: bad rows included, blank lines and a CSV header
 * not.
 */
export interface RowCounter {
  /** Rows this chunk completes. */
  push(chunk: Buffer): number;
  /** Rows the end of the source completes (a last line without a line break). */
  end(): number;
}

const LF = 0x0a;

/** The counter of a format. */
export function rowCounter(format: ImportFormat): RowCounter {
  if (format === 'csv') return csvRowCounter();
  if (format === 'json') return jsonArrayRowCounter();
  return ndjsonRowCounter();
}

/** The format the server gives a source whose format was not said: from its first character, as it sniffs. */
export function sniffFormat(first: Buffer): ImportFormat {
  const c = first
    .subarray(0, 64)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()[0];
  if (c === '[') return 'json';
  if (c === '{') return 'ndjson';
  return 'csv';
}

/** Whether a source starts as gzip does: the server then gunzips it whatever it was told. */
export function isGzip(first: Buffer): boolean {
  return first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b;
}

function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/**
 * NDJSON: a row per line whose text is not blank (JavaScript's `trim`, which also drops Unicode spaces); a last
 * line without a line break is a row too.
 */
export function ndjsonRowCounter(): RowCounter {
  /** The line so far holds something besides white space. */
  let filled = false;
  /** Set while a line holds only white space and some bytes beyond ASCII, which only decoding can judge. */
  let decoder: TextDecoder | null = null;

  const look = (chunk: Buffer, start: number, end: number): boolean => {
    if (decoder) return decoder.decode(chunk.subarray(start, end), { stream: true }).trim() !== '';
    for (let i = start; i < end; i++) {
      const c = chunk[i]!;
      if (isAsciiSpace(c)) continue;
      if (c < 0x80) return true;
      decoder = new TextDecoder('utf-8', { ignoreBOM: true });
      return decoder.decode(chunk.subarray(i, end), { stream: true }).trim() !== '';
    }
    return false;
  };
  const endLine = (): number => {
    const row = filled || (decoder !== null && decoder.decode().trim() !== '');
    filled = false;
    decoder = null;
    return row ? 1 : 0;
  };

  return {
    push(chunk) {
      let rows = 0;
      for (let start = 0; ; ) {
        const newline = chunk.indexOf(LF, start);
        const end = newline === -1 ? chunk.length : newline;
        if (!filled && end > start) filled = look(chunk, start, end);
        if (newline === -1) return rows;
        rows += endLine();
        start = newline + 1;
      }
    },
    end: endLine,
  };
}

/** White space between JSON values: space, tab, line feed, carriage return. */
function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * A JSON array: a row per top-level element, found as the server's scanner finds them (strings and nesting
 * tracked, elements not parsed). A body the server would stop at (not an array, two commas) counts no further.
 */
export function jsonArrayRowCounter(): RowCounter {
  let state: 'start' | 'between' | 'element' | 'done' | 'stopped' = 'start';
  let expectElement = true;
  let seen = false;
  let depth = 0;
  let inString = false;
  let escaped = false;

  return {
    push(chunk) {
      let rows = 0;
      for (let i = 0; i < chunk.length && state !== 'stopped'; i++) {
        const c = chunk[i]!;
        if (state === 'element') {
          if (inString) {
            if (escaped) escaped = false;
            else if (c === BACKSLASH) escaped = true;
            else if (c === QUOTE) inString = false;
          } else if (c === QUOTE) inString = true;
          else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
          else if (c === CLOSE_BRACE || (c === CLOSE_BRACKET && depth > 0)) depth--;
          else if (depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
            rows++;
            state = c === COMMA ? 'between' : 'done';
            expectElement = c === COMMA;
          }
          continue;
        }
        if (isJsonSpace(c)) continue;
        if (state === 'start') state = c === OPEN_BRACKET ? 'between' : 'stopped';
        else if (state === 'between') {
          if (c === CLOSE_BRACKET) state = expectElement && seen ? 'stopped' : 'done';
          else if (c === COMMA) state = 'stopped';
          else {
            state = 'element';
            depth = 0;
            inString = false;
            escaped = false;
            seen = true;
            // The element's first character is scanned again as part of it.
            i--;
          }
        } else state = 'stopped';
      }
      return rows;
    },
    end: () => 0,
  };
}
