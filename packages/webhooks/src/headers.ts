import { WebhookVerificationError } from './errors.js';

/** A fetch `Headers` object, or anything with the same lookup (e.g. Hono's and Next.js's request headers). */
export interface HeadersGetter {
  get(name: string): string | null;
}

/**
 * A request's headers in any of the shapes servers hand them out: a `Headers` object, Node's
 * `IncomingHttpHeaders` (lower-case names, `string | string[]` values), or a plain object with names in any case.
 */
export type HeadersLike = HeadersGetter | Readonly<Record<string, string | readonly string[] | undefined>>;

type HeaderValue = string | readonly string[] | undefined;

/** The raw value of a header, looked up without regard to case; `name` is lower case. */
export function rawHeader(headers: HeadersLike, name: string): HeaderValue {
  if (typeof headers.get === 'function') return (headers as HeadersGetter).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, HeaderValue>>;
  const direct = record[name];
  if (direct !== undefined) return direct;
  // Node lower-cases names, but plain objects written by hand or by other frameworks may not.
  for (const key of Object.keys(record)) {
    if (key.length === name.length && key.toLowerCase() === name) return record[key];
  }
  return undefined;
}

/** A header that carries one value; `undefined` when absent or empty. A repeated header must repeat one value. */
export function singleHeader(headers: HeadersLike, name: string): string | undefined {
  const value = rawHeader(headers, name);
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  const distinct = new Set(value.map((each) => each.trim()).filter(Boolean));
  if (distinct.size > 1) {
    throw new WebhookVerificationError(
      'malformed_header',
      `${name} was sent more than once with different values`,
      name,
    );
  }
  return distinct.values().next().value;
}

/** A header that carries a list; a repeated header is one list, its values joined by `separator`. */
export function listHeader(headers: HeadersLike, name: string, separator: string): string | undefined {
  const value = rawHeader(headers, name);
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : value.join(separator);
  return text.trim() ? text : undefined;
}
