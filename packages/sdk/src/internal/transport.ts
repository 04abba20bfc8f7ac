/** Raw response headers: a web `Headers` (fetch) or undici's plain object with lower-case names. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/** One HTTP attempt, already fully built by the client. */
export interface TransportRequest {
  method: string;
  url: string;
  /** Lower-case names; transports must not change this object (the client reuses it). */
  headers: Record<string, string>;
  body: string | undefined;
  /** Milliseconds to wait for the answer before throwing `TransportTimeout`. */
  timeout: number;
  /** The caller's signal, if any; transports stop when it aborts. */
  signal: AbortSignal | undefined;
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
