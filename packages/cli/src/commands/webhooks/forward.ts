import { APIConnectionError, APIError, type DataPlatform, type WebhookStreamEvent } from '@dataplatform/sdk';
import { VERSION } from '../../version.js';

/** How long the local receiver gets to answer, as the server gives a receiver (API.md: 2xx within 10 s). */
const FORWARD_TIMEOUT_MS = 10_000;
/** Waits before reconnecting: doubled after each failed try, from 1 s up to 30 s. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/** One forwarding attempt, as `dp webhooks listen` prints it (the JSON line shape is documented). */
export interface ForwardAttempt {
  /** When the attempt started, ISO 8601. */
  time: string;
  eventId: string;
  type: string;
  /** The receiver's HTTP status; null when no answer came. */
  status: number | null;
  durationMs: number;
  /** Why no answer came (connection refused, timeout); null when one did. */
  error: string | null;
}

/**
 * POSTs the event's raw body with exactly the signed headers a delivery carries, so the receiver verifies it as
 * it would verify the server's own delivery. Redirects are not followed, as the server does not follow them.
 */
export async function forwardEvent(
  url: string,
  event: WebhookStreamEvent,
  stop: AbortSignal,
): Promise<ForwardAttempt> {
  const started = Date.now();
  const attempt = { time: new Date(started).toISOString(), eventId: event.id, type: event.type };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...event.message.headers, 'user-agent': `dataplatform-cli/${VERSION} (webhooks listen)` },
      body: event.message.body,
      redirect: 'manual',
      signal: AbortSignal.any([stop, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { ...attempt, status: response.status, durationMs: Date.now() - started, error: null };
  } catch (error) {
    return { ...attempt, status: null, durationMs: Date.now() - started, error: failureText(error) };
  }
}

/** What a failed fetch says: the network error inside fetch's "fetch failed", or the timeout. */
function failureText(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`;
  }
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : error instanceof Error ? error : undefined;
  return inner?.message || String(error);
}

/** What `followStream` tells its caller. */
export interface StreamListener {
  /** The stream is connected: the first time, or again after a drop. */
  onOpen(again: boolean, lastEventId: string | undefined): void;
  /** An event arrived; the next one is read once this resolves. */
  onEvent(event: WebhookStreamEvent): Promise<void>;
  /** The connection dropped; the next try is in `delayMs`. */
  onDrop(reason: string, delayMs: number): void;
}

/**
 * Reads the subscription's event stream until `stop` aborts. A dropped connection (network failure, silence,
 * the server ending the stream or answering 5xx or 429) is opened again after a growing wait, with the last
 * event's id as `Last-Event-ID`, so the server replays what came in between. Before the first connection and
 * for any other answer (401, 403, 404: the subscription was deleted) the error is thrown.
 */
export async function followStream(
  client: DataPlatform,
  webhookId: string,
  stop: AbortSignal,
  listener: StreamListener,
): Promise<void> {
  let lastEventId: string | undefined;
  let opened = false;
  let failures = 0;
  while (!stop.aborted) {
    let reason = 'the server ended the stream';
    try {
      const events = client.webhooks.stream(webhookId, {
        lastEventId,
        signal: stop,
        onOpen: () => {
          listener.onOpen(opened, lastEventId);
          opened = true;
          failures = 0;
        },
        // The stream's start, before any event: resuming from it loses nothing captured before the first event.
        onResumePoint: (id) => {
          lastEventId = id;
        },
      });
      for await (const event of events) {
        await listener.onEvent(event);
        lastEventId = event.id;
      }
    } catch (error) {
      if (stop.aborted) return;
      if (!opened || !transient(error)) throw error;
      reason = error instanceof Error ? error.message : String(error);
    }
    if (stop.aborted) return;
    const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** failures++);
    listener.onDrop(reason, delay);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, delay);
      stop.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        stop.removeEventListener('abort', done);
        resolve();
      }
    });
  }
}

/** Failures that may pass: no connection, a timeout, an overloaded or failing server. */
function transient(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  if (error instanceof APIError && error.status !== undefined) {
    return error.status >= 500 || error.status === 429 || error.status === 408;
  }
  return false;
}
