/** Raw response headers: a web `Headers` (fetch) or undici's plain object with lower-case names. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/** One HTTP attempt, already fully built by the client. */
export interface TransportRequest {
  method: string;
  url: string;
  /** Lower-case names; transports must not change this object (the client reuses it). */
  headers: Record<string, string>;
  /** JSON text, bytes, or a stream of bytes (sent once: a streamed call is never retried). */
  body: RequestBody | undefined;
  /** Milliseconds to wait for the answer before throwing `TransportTimeout`. */
  timeout: number;
  /** The caller's signal, if any; transports stop when it aborts. */
  signal: AbortSignal | undefined;
}

/** What a request can carry: text, bytes, or bytes that arrive over time (a file being read, say). */
export type RequestBody = string | Uint8Array | AsyncIterable<Uint8Array>;

/** Whether a body is a stream, which a transport must send with `duplex: 'half'` and cannot send twice. */
export function isStreamBody(body: RequestBody | undefined): body is AsyncIterable<Uint8Array> {
  return typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
}

/** A complete answer: the body is read inside the attempt, so a broken body is retried like a broken connection. */
export interface RawResponse {
  status: number;
  headers: HeaderSource;
  body: string;
}

/**
 * The one seam between the client and the network. Errors, retries and timeouts live in the client; a transport
 * only sends one attempt, enforcing `timeout` in whatever way is cheapest for it.
 */
export type Transport = (request: TransportRequest) => Promise<RawResponse>;

/** Thrown by a transport when `TransportRequest.timeout` elapsed; the client turns it into APIConnectionTimeoutError. */
export class TransportTimeout extends Error {
  override readonly name = 'TransportTimeout';
}
