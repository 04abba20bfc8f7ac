import type { FastifyReply, FastifyRequest } from 'fastify';

/** How often an idle stream sends a comment line, so proxies and clients keep the connection open. */
export const SSE_HEARTBEAT_MS = 15_000;

/** One server-sent event, framed: `id:`, `event:` and one `data:` line of JSON. */
export function sseEvent(event: { id: string; type: string; data: unknown }): string {
  return sseFrame(event.id, event.type, JSON.stringify(event.data));
}

/** One server-sent event whose data is JSON text already (one line: JSON.stringify writes no line breaks). */
export function sseFrame(id: string, type: string, json: string): string {
  return `id: ${id}\nevent: ${type}\ndata: ${json}\n\n`;
}

/** An open server-sent event stream: writes until the client goes or `end()` is called. */
export interface SseConnection {
  write(text: string): void;
  end(): void;
}

/**
 * Takes the reply over and starts a server-sent event stream: the headers, `first` (a `retry:` line and whatever the
 * stream starts with), then a comment every `SSE_HEARTBEAT_MS`. `onClose` runs once, when the client goes or the
 * stream is ended.
 */
export function openSse(
  request: FastifyRequest,
  reply: FastifyReply,
  first: string,
  onClose: () => void,
): SseConnection {
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    // The connection ends with the stream: nothing waits on it when the server stops.
    connection: 'close',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  reply.raw.write(first);
  let closed = false;
  const heartbeat = setInterval(() => connection.write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
  const connection: SseConnection = {
    write(text) {
      if (!closed) reply.raw.write(text);
    },
    end() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      if (!reply.raw.writableEnded) reply.raw.end();
      onClose();
    },
  };
  reply.raw.on('close', () => connection.end());
  return connection;
}
