import { startDeadline } from './deadline.js';
import type { RawResponse, Transport, TransportRequest } from './transport.js';
import { TransportTimeout } from './transport.js';

/** The fetch signature the client needs; `globalThis.fetch` and most polyfills satisfy it. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** Sends one attempt with a fetch function; the deadline covers the whole attempt, body included. */
export async function sendWithFetch(fetch: Fetch, request: TransportRequest): Promise<RawResponse> {
  const deadline = startDeadline(request.timeout, request.signal);
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: deadline.signal };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetch(request.url, init);
    const body = await response.text();
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    if (deadline.expired)
      throw new TransportTimeout(`Request timed out after ${request.timeout} ms`, { cause: error });
    throw error;
  } finally {
    deadline.clear();
  }
}

/** A transport over a given fetch function (the `fetch` option). */
export function fetchTransport(fetch: Fetch): Transport {
  return (request) => sendWithFetch(fetch, request);
}

/** A transport over whatever `globalThis.fetch` is when the request is sent (MSW patches it after the client exists). */
export const globalFetchTransport: Transport = (request) => sendWithFetch(globalThis.fetch, request);
