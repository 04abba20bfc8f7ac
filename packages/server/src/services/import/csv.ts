import { inferCsvCell } from '@dataplatform/contract';
import { type CsvError, type Info, parse } from 'csv-parse';
import { type RowParser, SourceError, type SourceRow } from './rows.js';

interface ParsedRecord {
  record: string[];
  info: Info;
}

/**
 * CSV (RFC 4180) with a header row naming the fields, read by csv-parse. A row with another number of cells than
 * the header is an `invalid_row`; a malformed quote stops the import, since what follows cannot be told apart.
 */
export function csvParser(infer: boolean, maxRowBytes: number): RowParser {
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: maxRowBytes,
  });
  let header: string[] | null = null;
  let failure: CsvError | null = null;
  let lastLine = 0;
  parser.on('error', (error: CsvError) => {
    failure = error;
  });

  const drain = (): SourceRow[] => {
    const rows: SourceRow[] = [];
    for (let item = parser.read() as ParsedRecord | null; item !== null; item = parser.read()) {
      const { record, info } = item;
      const line = lastLine + 1;
      lastLine = info.lines;
      if (record.length === 1 && record[0] === '') continue;
      if (header === null) {
        header = record;
        continue;
      }
      if (record.length !== header.length) {
        rows.push({
          line,
          error: {
            code: 'invalid_row',
            message: `The row has ${record.length} cells; the header names ${header.length} fields`,
          },
        });
        continue;
      }
      const value: Record<string, unknown> = {};
      for (let i = 0; i < header.length; i++) {
        Object.defineProperty(value, header[i]!, {
          value: infer ? inferCsvCell(record[i]!) : record[i],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      rows.push({ line, value });
    }
    if (failure) {
      const error = failure as CsvError & { lines?: number };
      throw new SourceError('invalid_csv', error.message, error.lines ?? lastLine + 1);
    }
    return rows;
  };

  return {
    push(chunk) {
      parser.write(chunk);
      return drain();
    },
    async end() {
      // The last record comes out of the parser's flush, which Node runs on a later tick.
      await new Promise<void>((resolve) => {
        parser.once('finish', resolve);
        parser.once('error', () => resolve());
        parser.end();
      });
      return drain();
    },
  };
}
