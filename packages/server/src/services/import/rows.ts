import { checkJsonNumbers } from '@dataplatform/contract';

/** A row read from an import's source: the parsed value, or why it could not be read. */
export type SourceRow =
  | { line: number; value: unknown; error?: undefined }
  | { line: number; value?: undefined; error: { code: string; message: string } };

/** Turns a byte stream into rows; each call gets the next chunk and returns the rows it completed. */
export interface RowParser {
  push(chunk: Buffer): SourceRow[];
  /** The rows left once the source ended; throws `SourceError` when the source is cut off or malformed. */
  end(): SourceRow[] | Promise<SourceRow[]>;
}

/** A source that cannot be read on, such as a JSON array that is not one: the whole import stops. */
export class SourceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * A JSON value of one row, an `invalid_json` row naming the parser's complaint, or a `validation_error` row for an
 * integer that JSON cannot keep exactly (as a request body would be refused).
 */
export function parseJsonRow(text: string, line: number): SourceRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, error: { code: 'invalid_json', message: (error as Error).message } };
  }
  const numbers = checkJsonNumbers(text);
  if (numbers) return { line, error: { code: numbers.code, message: numbers.message } };
  return { line, value };
}
