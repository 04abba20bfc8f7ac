import { startDeadline } from './deadline.js';
import type { RawResponse, Transport, TransportRequest } from './transport.js';
import { isStreamBody, TransportTimeout } from './transport.js';

/** The fetch signature the client needs; `globalThis.fetch` and most polyfills satisfy it. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** Sends one attempt with a fetch function; the deadline covers the whole attempt, body included. */
export async function sendWithFetch(fetch: Fetch, request: TransportRequest): Promise<RawResponse> {
  const deadline = startDeadline(request.timeout, request.signal);
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: deadline.signal };
    if (isStreamBody(request.body)) {
      init.body = readableStreamOf(request.body);
      // Fetch sends a stream only when told the request may go on while the answer arrives.
      (init as RequestInit & { duplex: 'half' }).duplex = 'half';
    } else if (request.body !== undefined) init.body = request.body as BodyInit;
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

/** A web stream over an async iterable of bytes (ReadableStream.from is not in every runtime yet). */
function readableStreamOf(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}
