import { get, type IncomingMessage } from 'node:http';

/** One server-sent event. */
export interface Sent {
  id?: string;
  event?: string;
  data?: string;
}

/**
 * Opens a server-sent event stream with node:http (one connection of its own, closed with the stream) and
 * collects its events and the ids it sends alone; comments and `retry:` lines are skipped.
 */
export async function openStream(url: string, headers: Record<string, string>) {
  const events: Sent[] = [];
  /** Ids sent without an event: the points to resume from that the server gives as a stream starts. */
  const resumePoints: string[] = [];
  const request = get(url, { headers });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  });
  let buffer = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: Sent = {};
      for (const line of block.split('\n')) {
        const at = line.indexOf(': ');
        if (line.startsWith(':') || at < 0) continue;
        const field = line.slice(0, at);
        if (field === 'id' || field === 'event' || field === 'data') event[field] = line.slice(at + 2);
      }
      if (event.data) events.push(event);
      else if (event.id) resumePoints.push(event.id);
    }
  });
  response.on('error', () => {});
  /** Resolves when the server ends the stream (or the connection goes). */
  const ended = new Promise<void>((resolve) => response.on('close', resolve));
  return {
    ended,
    status: response.statusCode,
    contentType: response.headers['content-type'],
    transferEncoding: response.headers['transfer-encoding'],
    events,
    resumePoints,
    async waitFor(count: number) {
      const deadline = Date.now() + 10_000;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`stream sent ${events.length} of ${count} events`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return events.slice(0, count);
    },
    close() {
      request.destroy();
    },
  };
}

/** Waits until the stream has sent the id it starts with: from then on, every write reaches it. */
export async function started(stream: { resumePoints: string[] }): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (stream.resumePoints.length === 0) {
    if (Date.now() > deadline) throw new Error('the stream sent no start id');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return stream.resumePoints[0]!;
}
