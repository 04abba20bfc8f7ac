import type { Violation } from './documents.js';

/**
 * Checks the Content-Type of a JSON body: none at all (scripts often leave it out), `application/json` or any
 * `application/…+json` type, in UTF-8, the one charset JSON has (RFC 8259). Anything else is 415
 * `unsupported_media_type`, so a form or a text body is never read as JSON by accident.
 */
export function checkJsonMediaType(header: string | null | undefined): Violation | null {
  if (header === undefined || header === null || header.trim() === '') return null;
  const [type = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  const json = type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
  const charset = parameters
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (json && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return null;
  return {
    code: 'unsupported_media_type',
    message: `A body of type "${header}" is not accepted: send JSON in UTF-8 with Content-Type: application/json (with curl: --json)`,
    details: { contentType: header },
  };
}
