import type { ImportFormat } from '../schemas/job.js';
import type { Violation } from './documents.js';

const FORMAT_BY_MEDIA_TYPE: Record<string, ImportFormat> = {
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  'application/x-jsonlines': 'ndjson',
  'application/json': 'json',
  'text/csv': 'csv',
};

/**
 * The import format a Content-Type names; undefined for types that say nothing (octet-stream, gzip, none), so the
 * format is then sniffed from the body.
 */
export function importFormatOfMediaType(contentType: string | null | undefined): ImportFormat | undefined {
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  return media ? FORMAT_BY_MEDIA_TYPE[media] : undefined;
}

/**
 * The format an import reads: the one asked for (`format`, or the Content-Type), else the one its first
 * characters show: `[` a JSON array, `{` NDJSON, anything else CSV. An empty body shows nothing and counts as
 * NDJSON, the format a job is created with.
 * @example importFormat(undefined, '\uFEFF[{"a":1}]') // 'json'
 */
export function importFormat(asked: ImportFormat | undefined, start: string): ImportFormat {
  if (asked) return asked;
  if (start === '') return 'ndjson';
  const c = start.replace(/^\uFEFF/, '').trimStart()[0];
  if (c === '[') return 'json';
  if (c === '{') return 'ndjson';
  return 'csv';
}

/**
 * Reads an import's Content-Encoding: true for gzip, false for none or `identity`, or the violation for any other
 * (400 `validation_error` naming the header). A body whose first bytes are gzip's is gunzipped even without the
 * header, but an encoding that is named must be one the server reads.
 */
export function checkImportEncoding(header: string | null | undefined): boolean | Violation {
  const encoding = header?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') return false;
  if (encoding === 'gzip' || encoding === 'x-gzip') return true;
  return {
    code: 'validation_error',
    message: `Content-Encoding "${encoding}" is not supported; send gzip or nothing`,
    details: { in: 'header', field: 'content-encoding' },
  };
}
