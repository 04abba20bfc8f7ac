import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How a receiver answers its n-th request (0-based): a status, and headers such as Location. */
export type Answerer = (n: number, request: Received) => { status: number; headers?: Record<string, string> };

/** A real HTTP receiver on loopback that records every request and answers as the test says. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  /** Changes how later requests are answered. */
  answer(answerer: Answerer): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 that answers 200 unless told otherwise. */
export async function startReceiver(answerer: Answerer = () => ({ status: 200 })): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  let answer = answerer;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const { status, headers } = answer(received.length, entry);
      received.push(entry);
      response.writeHead(status, headers).end('ok');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(next) {
      answer = next;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
