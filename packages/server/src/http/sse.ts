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
  /** Bytes written but not yet taken by the operating system (what a reader that does not read piles up). */
  buffered(): number;
  /** Resolves true once that buffer is emptied, false after `ms` or when the connection goes first. */
  drained(ms: number): Promise<boolean>;
  end(): void;
}

/** A reader that does not take what is left when its stream ends loses the connection after this long. */
const LINGER_MS = 10_000;

/**
 * How an event stream of server-sent events starts and ends: `retry:` and the start id (if any) first; an `error`
 * event last, whose data carries the code, the message and the last id sent.
 */
export const SSE_FORMAT = {
  start: (startId: string | undefined) => (startId ? `retry: 2000\nid: ${startId}\n\n` : 'retry: 2000\n\n'),
  error: (error: { code: string; message: string }, lastEventId: string | undefined) => {
    const data = JSON.stringify({ ...error, ...(lastEventId ? { lastEventId } : {}) });
    return `${lastEventId ? `id: ${lastEventId}\n` : ''}event: error\ndata: ${data}\n\n`;
  },
};

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
  // The body ends with the connection (`connection: close`), so it needs no chunked framing: each write is then one
  // plain socket write, where a chunk costs a size line, a line break and a vectored write (a thousand streams of a
  // collection make a thousand writes per event batch).
  reply.raw.removeHeader('transfer-encoding');
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    // The connection ends with the stream: nothing waits on it when the server stops.
    connection: 'close',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  reply.raw.write(first);
  // After the headers, events go to the socket itself: the body has no framing for the reply to add, and the reply's
  // write (a cork, and an uncork a turn later, per write) cost a tenth of the server's CPU at a thousand streams
  // (docs/benchmarks.md, "Realtime"). The reply still ends the stream.
  const socket: NodeJS.WritableStream & { writableLength: number; destroyed: boolean } =
    reply.raw.socket ?? reply.raw;
  let closed = false;
  // What is written in one go (until the next microtask) leaves as one write: a feed hands a page of events to
  // every stream in turn, and one write per stream costs far less than one per event.
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = () => {
    if (pending.length > 0 && !reply.raw.writableEnded && !socket.destroyed)
      socket.write(encodedBatch(pending));
    pending = [];
    pendingLength = 0;
  };
  const heartbeat = setInterval(() => connection.write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
  const connection: SseConnection = {
    write(text) {
      if (closed) return;
      if (pending.length === 0) flushSoon(flush);
      pending.push(text);
      pendingLength += text.length;
    },
    buffered: () => reply.raw.writableLength + pendingLength,
    drained: (ms) => drained(socket, ms),
    end() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      flush();
      if (!reply.raw.writableEnded) reply.raw.end();
      // What is still buffered waits for the reader, but not for ever.
      if (reply.raw.writableLength > 0) setTimeout(() => reply.raw.destroy(), LINGER_MS).unref();
      onClose();
    },
  };
  reply.raw.on('close', () => connection.end());
  return connection;
}

/**
 * Streams flushed per turn of the event loop. A feed's read hands its events to every stream in one go; a thousand
 * socket writes take about 10 ms, and requests that arrive meanwhile (the writes whose events come next) waited for
 * all of them. The first slice is written at once; the next ones after the event loop has looked at its sockets.
 */
export const FLUSH_SLICE = 250;
const toFlush: (() => void)[] = [];
let flushing = false;

/** Runs `flush` at the end of this turn, or in a later one when this turn has flushed a slice already. */
export function flushSoon(flush: () => void): void {
  toFlush.push(flush);
  if (flushing) return;
  flushing = true;
  queueMicrotask(flushSlice);
}

function flushSlice(): void {
  const slice = toFlush.splice(0, FLUSH_SLICE);
  for (const flush of slice) {
    try {
      flush();
    } catch (error) {
      // One stream's failure is thrown on its own, as when each stream flushed in a microtask of its own: the
      // other streams still flush, and the queue is not left waiting for a slice that never comes.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
  if (toFlush.length > 0) setImmediate(flushSlice);
  else flushing = false;
}

/** The last batch encoded: the streams flushed in one turn mostly write the same frames (a feed's new events). */
let lastBatch: { texts: string[]; bytes: Buffer } | undefined;

/**
 * The texts as one buffer, shared with the previous call when it was given the same texts: the streams a feed
 * hands the same events to then write one buffer, encoded once, rather than each its own copy.
 */
function encodedBatch(texts: string[]): Buffer {
  const last = lastBatch;
  if (last && last.texts.length === texts.length && last.texts.every((text, i) => text === texts[i]))
    return last.bytes;
  const bytes = Buffer.from(texts.length === 1 ? texts[0]! : texts.join(''));
  lastBatch = { texts, bytes };
  return bytes;
}

/** Resolves true on the stream's next `drain`, false after `ms` or when it closes first. */
export function drained(
  stream: NodeJS.WritableStream & { writableLength: number },
  ms: number,
): Promise<boolean> {
  if (stream.writableLength === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (result: boolean) => {
      clearTimeout(timer);
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      resolve(result);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    stream.on('drain', onDrain);
    stream.on('close', onClose);
  });
}
