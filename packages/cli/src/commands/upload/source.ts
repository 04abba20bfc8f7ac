import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ImportFormat } from '@dataplatform/sdk';
import { UsageError } from '../../errors/cli-error.js';
import type { IOStreams } from '../../iostreams.js';
import { isGzip, type RowCounter, rowCounter, sniffFormat } from './rows.js';

/** The file an upload reads, with what is known of it before reading. */
export interface UploadSource {
  /** How messages name it: the file name, or "standard input". */
  name: string;
  /** Its size in bytes when it is a file; undefined for standard input. */
  size: number | undefined;
  /** The format its name says, if any. */
  format: ImportFormat | undefined;
  /** Whether its name ends in .gz. */
  gzip: boolean;
  open(): AsyncIterable<Buffer | string>;
}

const BY_EXTENSION: Record<string, ImportFormat> = {
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  json: 'json',
  csv: 'csv',
};

/** The format and compression a file name says: `orders.csv.gz` is gzipped CSV. */
export function formatOfName(name: string): { format: ImportFormat | undefined; gzip: boolean } {
  const parts = basename(name).toLowerCase().split('.');
  const gzip = parts.at(-1) === 'gz' || parts.at(-1) === 'gzip';
  const extension = gzip ? parts.at(-2) : parts.at(-1);
  return { format: parts.length > (gzip ? 2 : 1) ? BY_EXTENSION[extension ?? ''] : undefined, gzip };
}

/** Opens `file`, or standard input for `-`; a missing file is a usage error before anything is sent. */
export async function openSource(io: IOStreams, file: string): Promise<UploadSource> {
  if (file === '-') {
    if (io.stdin.isTTY) {
      throw new UsageError(
        'standard input is a terminal',
        'pipe a file in: `cat orders.ndjson | dp upload - …`',
      );
    }
    return { name: 'standard input', size: undefined, format: undefined, gzip: false, open: () => io.stdin };
  }
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new UsageError(`${file} is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(`could not read ${file}: ${reason}`);
  }
  // 1 MiB reads: fewer, larger writes to the socket than the 64 KiB default.
  return {
    name: file,
    size,
    ...formatOfName(file),
    open: () => createReadStream(file, { highWaterMark: 1 << 20 }),
  };
}

/** What has been sent so far. */
export interface Tally {
  bytes: number;
  /**
   * Rows in the bytes sent, counted as the server counts them (no CSV header, no blank lines); undefined when
   * they are not counted: for gzip, which would have to be unpacked here too.
   */
  rows: number | undefined;
  /** When the last byte was handed over (Date.now()); the server may still be storing rows. */
  sentAt?: number | undefined;
}

/**
 * Passes the chunks on unchanged, counting into `tally` the bytes and rows of each once it has been taken. The
 * rows are counted for `format`, else for the format the server will sniff from the first bytes.
 */
export async function* counted(
  chunks: AsyncIterable<Buffer | string>,
  tally: Tally,
  format: ImportFormat | undefined,
): AsyncGenerator<Buffer> {
  let counter: RowCounter | undefined;
  let first = true;
  for await (const piece of chunks) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    if (first) {
      first = false;
      if (tally.rows !== undefined && !isGzip(chunk)) counter = rowCounter(format ?? sniffFormat(chunk));
      else tally.rows = undefined;
    }
    yield chunk;
    tally.bytes += chunk.length;
    if (counter) tally.rows! += counter.push(chunk);
  }
  if (counter) tally.rows! += counter.end();
  tally.sentAt = Date.now();
}
