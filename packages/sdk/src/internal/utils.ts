import { DataPlatformError } from '../core/error.js';

/** Reads an environment variable where one exists (Node, Bun, Deno with `process`); undefined elsewhere. */
export function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name]?.trim() || undefined;
}

/** Resolves after `ms`, or rejects at once when `signal` aborts, so a caller's abort also ends a retry wait. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A random UUID v4, used as the automatic Idempotency-Key. */
export function uuid(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (ch) => {
    const r = (Math.random() * 16) | 0;
    return (ch === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

/**
 * Encodes one path segment. `.` and `..` are refused: URL parsers resolve them (even as `%2E`), so the request
 * would silently reach another route.
 */
export function segment(value: string, what: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new DataPlatformError(
      `Invalid ${what} ${JSON.stringify(value)}: it must be a non-empty string other than "." and ".."`,
    );
  }
  return encodeURIComponent(value);
}

/** Builds `?a=1&b=2` from defined values, or '' when there are none. */
export function queryString(
  query: Record<string, string | number | boolean | undefined> | undefined,
): string {
  if (!query) return '';
  let out = '';
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    out += `${out ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
  }
  return out;
}
