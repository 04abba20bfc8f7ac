import type { HeadersInput } from './headers.js';
import type { RequestBody } from './transport.js';

/** Options of one call; each overrides the client's setting for that call only. */
export interface RequestOptions {
  /** Milliseconds to wait for each attempt (default: the client's `timeout`, 60 000). */
  timeout?: number;
  /** Retries after the first attempt (default: the client's `maxRetries`, 2). */
  maxRetries?: number;
  /**
   * Longest server-requested wait (`Retry-After`, as after a 429) to sit through before a retry, in milliseconds
   * (default: the client's `maxRetryWait`, 60 000). A longer one ends the call with the error at once.
   */
  maxRetryWait?: number;
  /** Aborts the call, including any wait between retries; the call then rejects with APIUserAbortError. */
  signal?: AbortSignal;
  /** Extra headers; `null` removes a header the client would send. */
  headers?: HeadersInput;
  /** Idempotency-Key for a write; by default one is generated per call and reused by its retries. */
  idempotencyKey?: string;
}

/** Query values of a call; undefined values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** Options of a raw call made with `client.get()`, `client.post()` and so on. */
export interface CallOptions extends RequestOptions {
  query?: Query;
  /** A value sent as JSON. */
  body?: unknown;
  /** A body sent as it is (set its Content-Type in `headers`); a stream is sent once, without retries. */
  rawBody?: RequestBody;
}

/** Options of a server-sent event stream (`client.getEventStream()`, `client.webhooks.stream()`). */
export interface EventStreamOptions extends Pick<RequestOptions, 'timeout' | 'signal' | 'headers'> {
  query?: Query;
  /** Resume after this event: sent as `Last-Event-ID`, so the server replays what came after it. */
  lastEventId?: string | undefined;
  /**
   * Milliseconds without a byte from the server after which the stream fails with APIConnectionTimeoutError
   * (default 45 000: the server sends a keep-alive comment every 15 s).
   */
  idleTimeout?: number;
  /** Called once the server answered with the stream, before any event: the connection is up. */
  onOpen?: () => void;
  /**
   * Called with an id the server sent without an event: a point to resume from. The server sends one as a stream
   * starts, so a caller that reconnects with it as `lastEventId` before the first event still misses nothing.
   */
  onResumePoint?: (lastEventId: string) => void;
}
