import { APIError, APIUserAbortError } from '../core/error.js';
import { connectionError, type Target } from './connection.js';
import { toHeaders } from './headers.js';
import { isRetryableStatus, retryDelay } from './retry.js';
import type { HeaderSource, RawResponse, Transport, TransportRequest } from './transport.js';
import { sleep } from './utils.js';

/** Everything one call needs besides the request itself. */
export interface SendContext {
  target: Target;
  maxRetries: number;
  /** The longest `Retry-After` waited for in milliseconds; a longer one ends the call with the error. */
  maxRetryWait: number;
  /** Sees the headers of every answer, errors and retried ones included (the client reads its rate limit there). */
  onHeaders?: (headers: HeaderSource) => void;
  /** Chosen per attempt: MSW may patch `fetch` between two attempts of a test. */
  transport: () => Transport;
}

/**
 * Sends a request with retries: connection failures and timeouts, 408, 409 (not its final codes), 429 and 5xx,
 * waiting as the server asks (`Retry-After`, up to `maxRetryWait`) or with backoff. The request, headers included (so the Idempotency-Key), is built
 * once and sent unchanged by every attempt. Resolves with a 2xx/3xx answer; rejects with an APIError subclass.
 */
export async function send(request: TransportRequest, context: SendContext): Promise<RawResponse> {
  const { signal } = request;
  const requestId = request.headers['x-request-id'] ?? '';
  for (let retry = 0; ; retry++) {
    if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason, requestId });
    let raw: RawResponse;
    try {
      raw = await context.transport()(request);
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError({ cause: error, requestId });
      const failure = connectionError(error, context.target, requestId);
      if (retry >= context.maxRetries) throw failure;
      await wait(retryDelay(retry, undefined) ?? 0, signal, requestId);
      continue;
    }
    context.onHeaders?.(raw.headers);
    if (raw.status < 400) return raw;
    const body = parseErrorBody(raw.body);
    const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
    const delay =
      retry < context.maxRetries && isRetryableStatus(raw.status, code)
        ? retryDelay(retry, raw.headers, context.maxRetryWait)
        : undefined;
    if (delay === undefined) {
      throw APIError.generate(raw.status, body, undefined, toHeaders(raw.headers), requestId);
    }
    await wait(delay, signal, requestId);
  }
}

/** Waits between attempts; the caller's abort ends the wait with APIUserAbortError. */
async function wait(ms: number, signal: AbortSignal | undefined, requestId: string): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (error) {
    throw new APIUserAbortError({ cause: error, requestId });
  }
}

/** An error body as JSON when it is JSON, else its text (a proxy's HTML page, say). */
export function parseErrorBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
