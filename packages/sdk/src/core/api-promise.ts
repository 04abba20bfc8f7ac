import { toHeaders } from '../internal/headers.js';
import type { RawResponse } from '../internal/transport.js';

/** The parsed data of a call together with its HTTP response. */
export interface WithResponse<T> {
  data: T;
  response: Response;
  /** The `X-Request-Id` of the answer. */
  requestId: string | null;
}

/**
 * What every call returns: await it for the parsed data, or use `.asResponse()` / `.withResponse()` for the HTTP
 * status and headers. Parsing happens only when the data is asked for.
 * @example const { data, response } = await client.data.get('orders', id).withResponse();
 */
export class APIPromise<T> extends Promise<T> {
  readonly #response: Promise<RawResponse>;
  readonly #parse: (raw: RawResponse) => T;
  #parsed: Promise<T> | undefined;

  constructor(response: Promise<RawResponse>, parse: (raw: RawResponse) => T) {
    // The base promise is never used: then/catch/finally below delegate to the lazily parsed result.
    super((resolve) => resolve(undefined as T));
    this.#response = response;
    this.#parse = parse;
  }

  /** The HTTP response, without parsing the body (which can still be read from it). */
  asResponse(): Promise<Response> {
    return this.#response.then(toResponse);
  }

  /** The parsed data and the HTTP response. */
  async withResponse(): Promise<WithResponse<T>> {
    const [data, raw] = await Promise.all([this.#value(), this.#response]);
    const response = toResponse(raw);
    return { data, response, requestId: response.headers.get('x-request-id') };
  }

  #value(): Promise<T> {
    this.#parsed ??= this.#response.then(this.#parse);
    return this.#parsed;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass; then() hands out the lazily parsed result.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#value().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#value().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#value().finally(onfinally);
  }
}

/** Builds a web Response from a fully read answer; statuses that forbid a body get none. */
function toResponse(raw: RawResponse): Response {
  const noBody = raw.status === 204 || raw.status === 205 || raw.status === 304;
  return new Response(noBody ? null : raw.body, { status: raw.status, headers: toHeaders(raw.headers) });
}
