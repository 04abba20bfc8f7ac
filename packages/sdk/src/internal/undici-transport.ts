import type { Dispatcher } from 'undici';
import { type Deadline, startDeadline } from './deadline.js';
import { sendWithFetch } from './fetch-transport.js';
import type { Transport } from './transport.js';
import { TransportTimeout } from './transport.js';

type Undici = typeof import('undici');

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const LEGACY_GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
/**
 * undici's own header and body timers tick about every half second, so they may fire up to a second late.
 * Shorter timeouts get a precise timer and an AbortController instead, which costs a third of the throughput.
 */
const COARSE_TIMER_MIN_MS = 5_000;

let loading: Promise<Undici | null> | undefined;

/**
 * Loads undici on first use only, so browsers and edge runtimes never fetch it. Loading undici installs its own
 * Agent as the process-wide dispatcher when none is set yet, and Node's bundled fetch would then send through a
 * newer undici that rejects some requests it accepts (nodejs/undici#5500, reproduced here on Node 20 with a
 * `content-length` header). Touching `Headers` first makes Node load its bundled undici, which claims that slot.
 * Null when undici cannot be loaded (a bundle that left it out): the transport then falls back to fetch.
 */
function loadUndici(): Promise<Undici | null> {
  if (!loading) {
    void globalThis.Headers;
    // A browser bundle maps undici to an empty module (package.json "browser"), hence the check for Pool.
    loading = import('undici').then(
      (undici) => (typeof undici.Pool === 'function' ? undici : null),
      () => null,
    );
  }
  return loading;
}

/** A dispatcher the caller installed with this copy of undici (a proxy agent, a MockAgent), if any. */
function userDispatcher(undici: Undici): Dispatcher | undefined {
  const installed = (globalThis as Record<symbol, unknown>)[LEGACY_GLOBAL_DISPATCHER];
  return installed instanceof undici.Dispatcher ? installed : undefined;
}

/**
 * The fast Node transport: `Dispatcher.request()` on a keep-alive Pool for the client's origin, about 3x the
 * throughput of Node's fetch. The pool's own timers carry the client's default timeout at no cost per request.
 * A dispatcher installed with `setGlobalDispatcher` from the same undici is honoured, as Node's fetch would.
 */
export function undiciTransport(origin: string, defaultTimeout: number): Transport {
  let undici: Undici | null | undefined;
  let pool: Dispatcher | undefined;
  return async (request) => {
    if (undici === undefined) undici = await loadUndici();
    if (undici === null) return sendWithFetch(globalThis.fetch, request);
    pool ??= new undici.Pool(origin, { headersTimeout: defaultTimeout, bodyTimeout: defaultTimeout });
    const dispatcher = userDispatcher(undici) ?? pool;
    const { timeout } = request;
    const options: Dispatcher.RequestOptions = {
      origin,
      path: request.url.startsWith(origin) ? request.url.slice(origin.length) : pathOf(request.url),
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      // undici also sends async iterables of bytes (its types name only Readable).
      body: request.body as Dispatcher.RequestOptions['body'],
      signal: request.signal,
    };
    let deadline: Deadline | undefined;
    if (timeout < COARSE_TIMER_MIN_MS) {
      deadline = startDeadline(timeout, request.signal);
      options.signal = deadline.signal;
    } else if (timeout !== defaultTimeout || dispatcher !== pool) {
      options.headersTimeout = timeout;
      options.bodyTimeout = timeout;
    }
    try {
      const response = await dispatcher.request(options);
      const body = await response.body.text();
      return { status: response.statusCode, headers: response.headers, body };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (deadline?.expired || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
        throw new TransportTimeout(`Request timed out after ${timeout} ms`, { cause: error });
      }
      throw error;
    } finally {
      deadline?.clear();
    }
  };
}

/** Path and query of an absolute URL; only reached when a URL does not start with the client's origin string. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}
