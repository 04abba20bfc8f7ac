import { parseJsonRow, type RowParser, SourceError, type SourceRow } from './rows.js';

const NEWLINE = 0x0a;

/** NDJSON: one JSON value per line; blank lines are passed over (and still counted, so lines match an editor's). */
export function ndjsonParser(maxRowBytes: number): RowParser {
  let carry: Buffer | null = null;
  let line = 0;
  const rowOf = (buffer: Buffer, start: number, end: number, rows: SourceRow[]) => {
    line++;
    const text = buffer.toString('utf8', start, end);
    if (text.trim() !== '') rows.push(parseJsonRow(text, line));
  };
  return {
    push(chunk) {
      const rows: SourceRow[] = [];
      const buffer = chunk;
      let start = 0;
      let newline = buffer.indexOf(NEWLINE);
      if (carry !== null) {
        if (newline === -1) {
          carry = Buffer.concat([carry, chunk]);
          if (carry.length > maxRowBytes) {
            throw new SourceError('row_too_large', `A line is longer than ${maxRowBytes} bytes`, line + 1);
          }
          return rows;
        }
        // Only the piece of the line that started in an earlier chunk is copied, never the whole chunk.
        rowOf(Buffer.concat([carry, chunk.subarray(0, newline)]), 0, carry.length + newline, rows);
        carry = null;
        start = newline + 1;
        newline = buffer.indexOf(NEWLINE, start);
      }
      while (newline !== -1) {
        rowOf(buffer, start, newline, rows);
        start = newline + 1;
        newline = buffer.indexOf(NEWLINE, start);
      }
      if (start < buffer.length) carry = Buffer.from(buffer.subarray(start));
      if (carry !== null && carry.length > maxRowBytes) {
        throw new SourceError('row_too_large', `A line is longer than ${maxRowBytes} bytes`, line + 1);
      }
      return rows;
    },
    end() {
      const rows: SourceRow[] = [];
      if (carry !== null) rowOf(carry, 0, carry.length, rows);
      carry = null;
      return rows;
    },
  };
}
