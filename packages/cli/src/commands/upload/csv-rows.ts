import type { RowCounter } from './rows.js';

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
const BOM = [0xef, 0xbb, 0xbf];

/** The record delimiter, found as csv-parse finds it: the first line break outside quotes decides. */
type Delimiter = 'unknown' | 'lf' | 'crlf' | 'cr';

/**
 * Counts the rows of CSV as the server's import reads them (csv-parse, RFC 4180): records end at the line break
 * the first record ends with (`\n`, `\r\n` or `\r`) outside quotes; a record that is one empty cell (a blank
 * line, or `""`) is passed over; the first other record is the header, not a row. Rows with the wrong number of
 * cells still count, as the server counts them among the refused.
 */
export function csvRowCounter(): RowCounter {
  let delimiter: Delimiter = 'unknown';
  let quoting = false;
  /** The record so far is one empty cell: no byte of content and no comma. */
  let blank = true;
  /** The cell so far holds nothing, so a quote opens it. */
  let cellEmpty = true;
  /** A byte the next chunk decides: a `\r` that may start `\r\n`, a quote inside quotes that may be `""`. */
  let pendingCr = false;
  let pendingQuote = false;
  let records = 0;
  let prefix: Buffer | null = Buffer.alloc(0);

  const content = () => {
    blank = false;
    cellEmpty = false;
  };
  const endRecord = () => {
    if (!blank) records++;
    blank = true;
    cellEmpty = true;
  };
  /** Rows completed so far: records less the header. */
  const rows = () => Math.max(0, records - 1);

  const scan = (chunk: Buffer): void => {
    let i = 0;
    const n = chunk.length;
    if (pendingQuote) {
      pendingQuote = false;
      if (chunk[0] === QUOTE) {
        content();
        i = 1;
      } else quoting = false;
    } else if (pendingCr) {
      pendingCr = false;
      if (chunk[0] === LF) {
        delimiter = 'crlf';
        endRecord();
        i = 1;
      } else if (delimiter === 'unknown') {
        delimiter = 'cr';
        endRecord();
      } else content();
    }
    // Where the next quote, \n and \r are (-1: none left), looked up again once passed.
    let quote = -2;
    let lf = -2;
    let cr = -2;
    while (i < n) {
      if (quoting) {
        // Inside quotes only a quote matters: jump to the next one.
        quote = chunk.indexOf(QUOTE, i);
        if (quote === -1) {
          content();
          return;
        }
        if (quote > i) content();
        if (quote + 1 === n) {
          pendingQuote = true;
          return;
        }
        if (chunk[quote + 1] === QUOTE) {
          content();
          i = quote + 2;
        } else {
          quoting = false;
          i = quote + 1;
        }
        continue;
      }
      // Outside quotes, jump to the next byte that matters: a quote, or a line break the delimiter may use.
      if (quote !== -1 && quote < i) quote = chunk.indexOf(QUOTE, i);
      if (lf !== -1 && lf < i) lf = chunk.indexOf(LF, i);
      if (cr !== -1 && cr < i) cr = chunk.indexOf(CR, i);
      let next = quote === -1 ? n : quote;
      if (lf !== -1 && lf < next && (delimiter === 'lf' || delimiter === 'unknown')) next = lf;
      if (cr !== -1 && cr < next && delimiter !== 'lf') next = cr;
      if (next > i) {
        blank = false;
        cellEmpty = chunk[next - 1] === COMMA;
        i = next;
        if (i === n) return;
      }
      const c = chunk[i]!;
      if (c === LF) {
        if (delimiter === 'unknown' || delimiter === 'lf') {
          delimiter = 'lf';
          endRecord();
        } else content();
      } else if (c === CR) {
        if (delimiter === 'cr') endRecord();
        else if (delimiter === 'lf') content();
        else if (i + 1 === n) {
          // `\r` or `\r\n`: the next chunk says.
          pendingCr = true;
          return;
        } else if (chunk[i + 1] === LF) {
          delimiter = 'crlf';
          endRecord();
          i++;
        } else if (delimiter === 'unknown') {
          delimiter = 'cr';
          endRecord();
        } else content();
      } else if (c === QUOTE && cellEmpty) {
        quoting = true;
      } else if (c === COMMA) {
        blank = false;
        cellEmpty = true;
      } else content();
      i++;
    }
  };

  /** csv-parse drops a byte order mark at the very start; wait for three bytes to know. */
  const skipBom = (chunk: Buffer): Buffer | null => {
    const head = Buffer.concat([prefix!, chunk]);
    const matched = BOM.findIndex((byte, index) => index >= head.length || head[index] !== byte);
    if (matched === -1) return head.subarray(BOM.length);
    if (matched >= head.length) {
      prefix = head;
      return null;
    }
    return head;
  };

  return {
    push(chunk) {
      const before = rows();
      const rest = prefix === null ? chunk : skipBom(chunk);
      if (rest === null) return 0;
      prefix = null;
      scan(rest);
      return rows() - before;
    },
    end() {
      const before = rows();
      if (prefix !== null && prefix.length > 0) scan(prefix);
      prefix = null;
      if (pendingQuote) quoting = false;
      if (pendingCr) {
        if (delimiter === 'crlf') content();
        else endRecord();
      }
      pendingQuote = pendingCr = false;
      // A quote never closed fails the import on the server; the record it started is no row.
      if (!quoting) endRecord();
      return rows() - before;
    },
  };
}
