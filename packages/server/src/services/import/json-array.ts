import { StringDecoder } from 'node:string_decoder';
import { parseJsonRow, type RowParser, SourceError, type SourceRow } from './rows.js';

enum Char {
  newline = 0x0a,
  quote = 0x22,
  backslash = 0x5c,
  comma = 0x2c,
  openBracket = 0x5b,
  closeBracket = 0x5d,
  openBrace = 0x7b,
  closeBrace = 0x7d,
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * A JSON array of values, read element by element: the scanner only finds where each top-level element starts
 * and ends (tracking strings and nesting), and `JSON.parse` reads the element, so memory holds one element.
 */
export function jsonArrayParser(maxRowBytes: number): RowParser {
  const decoder = new StringDecoder('utf8');
  let state: 'start' | 'between' | 'element' | 'done' = 'start';
  let expectElement = true;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let line = 1;
  let elementLine = 1;
  let pending = '';
  // Whether an element was seen at all, so "[]" is fine and "[1,]" is not.
  let seen = false;

  const fail = (message: string): never => {
    throw new SourceError('invalid_json', message, line);
  };

  const scan = (text: string): SourceRow[] => {
    const rows: SourceRow[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (state === 'element') {
        if (c === Char.newline) line++;
        if (inString) {
          if (escaped) escaped = false;
          else if (c === Char.backslash) escaped = true;
          else if (c === Char.quote) inString = false;
          continue;
        }
        if (c === Char.quote) inString = true;
        else if (c === Char.openBrace || c === Char.openBracket) depth++;
        else if (c === Char.closeBrace || (c === Char.closeBracket && depth > 0)) depth--;
        else if (depth === 0 && (c === Char.comma || c === Char.closeBracket)) {
          rows.push(parseJsonRow(pending + text.slice(start, i), elementLine));
          pending = '';
          state = c === Char.comma ? 'between' : 'done';
          expectElement = c === Char.comma;
        }
        continue;
      }
      if (c === Char.newline) line++;
      if (isSpace(c)) continue;
      if (state === 'start') {
        if (c !== Char.openBracket) fail('The body is not a JSON array: it must start with "["');
        state = 'between';
      } else if (state === 'between') {
        if (c === Char.closeBracket) {
          if (expectElement && seen) fail('A comma is followed by "]" instead of a value');
          state = 'done';
        } else if (c === Char.comma) {
          fail('Two commas without a value between them');
        } else {
          state = 'element';
          elementLine = line;
          start = i;
          depth = 0;
          inString = false;
          escaped = false;
          // The element's first character is scanned again as part of it.
          i--;
          seen = true;
        }
      } else fail('Nothing may follow the closing "]" of the array');
    }
    if (state === 'element') {
      pending += text.slice(start);
      // Characters, not bytes: a cheap bound that is never below the byte count's.
      if (pending.length > maxRowBytes)
        throw new SourceError('row_too_large', `An element is longer than ${maxRowBytes} bytes`, elementLine);
    }
    return rows;
  };
  return {
    push: (chunk) => scan(decoder.write(chunk)),
    end() {
      const rows = scan(decoder.end());
      if (state !== 'done') fail('The JSON array ends before its closing "]"');
      return rows;
    },
  };
}
