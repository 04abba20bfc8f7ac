import { APIError, APIUserAbortError, DataPlatformError } from '../core/error.js';
import { connectionError, type Target } from './connection.js';
import { EventStreamParser, type ServerSentEvent } from './event-stream.js';
import type { Fetch } from './fetch-transport.js';
import { parseErrorBody } from './send.js';
import { type HeaderSource, TransportTimeout } from './transport.js';

/** One GET of a server-sent event stream, fully built by the client. */
export interface EventStreamRequest {
  url: string;
  headers: Record<string, string>;
  /** Milliseconds to wait for the answer's status and headers. */
  timeout: number;
  /** Milliseconds without a single byte (keep-alive comments count) after which the stream is taken for dead. */
  idleTimeout: number;
  signal: AbortSignal | undefined;
  target: Target;
  onHeaders: (headers: HeaderSource) => void;
  onOpen: (() => void) | undefined;
  onResumePoint: ((lastEventId: string) => void) | undefined;
}

/**
 * Sends the GET with a fetch (the one interface that hands the body over as it arrives in every runtime) and
 * yields each event until the server ends the stream. Errors are the SDK's: an error status rejects with its
 * APIError, a broken or silent connection with APIConnectionError (Timeout), the caller's abort with
 * APIUserAbortError. There is no retry here: the caller resumes with the last event id when it wants to.
 */
export async function* requestEventStream(
  /** Read when the stream opens: a test may patch the global fetch after the client exists. */
  chooseFetch: () => Fetch,
  request: EventStreamRequest,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const { signal } = request;
  const requestId = request.headers['x-request-id'] ?? '';
  if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason, requestId });
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let silentFor = 0;
  const armTimer = (ms: number) => {
    silentFor = ms;
    timer = setTimeout(() => controller.abort(new TransportTimeout(`No data for ${ms} ms`)), ms);
  };
  const failure = (error: unknown) => {
    if (signal?.aborted) return new APIUserAbortError({ cause: error, requestId });
    if (controller.signal.reason instanceof TransportTimeout) {
      return connectionError(
        new TransportTimeout(`The event stream sent nothing for ${silentFor} ms`, { cause: error }),
        request.target,
        requestId,
      );
    }
    return connectionError(error, request.target, requestId);
  };
  try {
    armTimer(request.timeout);
    let response: Response;
    try {
      const fetch = chooseFetch();
      response = await fetch(request.url, {
        method: 'GET',
        headers: request.headers,
        signal: controller.signal,
      });
    } catch (error) {
      throw failure(error);
    } finally {
      clearTimeout(timer);
    }
    request.onHeaders(response.headers);
    if (response.status >= 400) {
      const body = await response.text().catch(() => '');
      throw APIError.generate(response.status, parseErrorBody(body), undefined, response.headers, requestId);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || !response.body) {
      await response.body?.cancel().catch(() => {});
      throw new DataPlatformError(
        `Expected an event stream, got a ${response.status} answer of type "${type}"`,
      );
    }
    request.onOpen?.();
    const reader = response.body.getReader();
    // Not every fetch ties the body to the signal (a mocked one may not): cancelling ends a pending read anyway.
    const cancel = () => void reader.cancel().catch(() => {});
    controller.signal.addEventListener('abort', cancel, { once: true });
    const decoder = new TextDecoder();
    const parser = new EventStreamParser();
    try {
      for (;;) {
        armTimer(request.idleTimeout);
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw failure(error);
        } finally {
          clearTimeout(timer);
        }
        if (chunk.done) {
          if (controller.signal.aborted) throw failure(controller.signal.reason);
          return;
        }
        // The caller may take its time with each event: no timer runs while it has one.
        for (const event of parser.push(decoder.decode(chunk.value, { stream: true }))) {
          if (event.event === '') request.onResumePoint?.(event.id);
          else yield event;
        }
      }
    } finally {
      controller.signal.removeEventListener('abort', cancel);
      cancel();
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
