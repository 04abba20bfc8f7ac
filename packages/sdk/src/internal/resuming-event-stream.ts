import { APIConnectionError, APIError, APIUserAbortError } from '../core/error.js';
import type { ServerSentEvent } from './event-stream.js';
import type { EventStreamOptions } from './request-options.js';
import { backoffDelay, isRetryableStatus } from './retry.js';

/** What `resumingEventStream` reports besides the events. */
export interface ResumeHooks {
  /** The stream is connected: the first time (`again` false), or again after a drop. */
  onOpen?: (again: boolean) => void;
  /** The connection dropped; the next try is in `delayMs`. */
  onDrop?: (reason: string, delayMs: number) => void;
}

/** Opens one stream, resuming after `lastEventId` when given (the caller's `getEventStream` call). */
export type OpenEventStream = (
  options: Pick<EventStreamOptions, 'lastEventId' | 'onOpen' | 'onResumePoint' | 'signal'>,
) => AsyncGenerator<ServerSentEvent, void, undefined>;

/**
 * The events of a stream that is opened again whenever it drops: on a network failure, a silent connection, the
 * server ending it, or a 408, 429 or 5xx answer, after a growing wait (0.5 s doubling up to 8 s, reset by each
 * successful open), with the last event id (or the start point the server sent) as `Last-Event-ID`, so nothing in
 * between is missed and nothing is seen twice. An error before the first open, any other error answer (400, 401,
 * 403, 404: a bad filter, a paused or deleted key) and the caller's abort end it with that error; `break` or the
 * signal stop it.
 */
export async function* resumingEventStream(
  open: OpenEventStream,
  options: { lastEventId?: string | undefined; signal?: AbortSignal | undefined } & ResumeHooks,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const { signal } = options;
  let lastEventId = options.lastEventId;
  let opened = false;
  let failures = 0;
  for (;;) {
    let reason = 'the server ended the stream';
    try {
      const events = open({
        lastEventId,
        signal,
        onOpen: () => {
          options.onOpen?.(opened);
          opened = true;
          failures = 0;
        },
        onResumePoint: (id) => {
          lastEventId = id;
        },
      });
      for await (const event of events) {
        yield event;
        lastEventId = event.id;
      }
    } catch (error) {
      if (!opened || !transient(error)) throw error;
      reason = error instanceof Error ? error.message : String(error);
    }
    const delay = backoffDelay(failures++);
    options.onDrop?.(reason, delay);
    await pause(delay, signal);
  }
}

/** Failures that may pass: no connection, a timeout, an overloaded or failing server. */
function transient(error: unknown): boolean {
  if (error instanceof APIUserAbortError) return false;
  if (error instanceof APIConnectionError) return true;
  return (
    error instanceof APIError && error.status !== undefined && isRetryableStatus(error.status, error.code)
  );
}

/** Waits `ms`; the caller's abort ends the wait with APIUserAbortError. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError({ cause: signal.reason }));
    const timer = setTimeout(done, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError({ cause: signal?.reason }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
  });
}
