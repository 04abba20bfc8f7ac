import type { ImportFormat } from '@dataplatform/contract';

const BY_MEDIA_TYPE: Record<string, ImportFormat> = {
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  'application/x-jsonlines': 'ndjson',
  'application/json': 'json',
  'text/csv': 'csv',
};

/** The format a Content-Type names; undefined for types that say nothing (octet-stream, gzip, none). */
export function formatOfContentType(contentType: string | undefined): ImportFormat | undefined {
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  return media ? BY_MEDIA_TYPE[media] : undefined;
}

/** The format of a source whose type was not given, from its first character: `[` JSON, `{` NDJSON, else CSV. */
export function sniffFormat(firstText: string): ImportFormat {
  const c = firstText.replace(/^\uFEFF/, '').trimStart()[0];
  if (c === '[') return 'json';
  if (c === '{') return 'ndjson';
  return 'csv';
}
