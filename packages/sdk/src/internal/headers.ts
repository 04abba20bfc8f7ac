import type { HeaderSource } from './transport.js';

/** Header values a caller may pass; `null` removes a header set at a lower level (client defaults). */
export type HeadersInput = Record<string, string | null | undefined>;

/** Reads one header from either header shape; `name` must be lower-case. */
export function headerOf(headers: HeaderSource, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Turns either header shape into web `Headers`; done only for errors and raw-response access. */
export function toHeaders(headers: HeaderSource): Headers {
  if (headers instanceof Headers) return headers;
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) out.append(name, item);
    else out.set(name, value);
  }
  return out;
}

/** Copies `layer` onto `target` with lower-cased names, deleting names whose value is `null`. */
export function applyHeaders(
  target: Record<string, string>,
  layer: HeadersInput | undefined,
): Record<string, string> {
  if (!layer) return target;
  for (const [name, value] of Object.entries(layer)) {
    const key = name.toLowerCase();
    if (value === null) delete target[key];
    else if (value !== undefined) target[key] = value;
  }
  return target;
}
