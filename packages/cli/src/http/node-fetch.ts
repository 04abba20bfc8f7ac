import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A `fetch` over node:http(s) for uploads. Node 20's built-in fetch reads a streamed request body faster than
 * the socket drains, so a large file ends up in memory; `pipeline` into the request waits for each write to
 * drain, which keeps an upload of any size within a few chunks (measured in docs/benchmarks.md, "Upload").
 */
export async function streamingFetch(url: string, init: RequestInit): Promise<Response> {
  // The module object, not its named export: a request interceptor (MSW in tests, a proxy agent) patches it.
  const http = (url.startsWith('https:') ? await import('node:https') : await import('node:http')).default;
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(
      url,
      { method: init.method, headers, signal: init.signal ?? undefined },
      (res) => {
        answer(res).then(resolve, reject);
      },
    );
    req.on('error', reject);
    const body = init.body;
    if (body === undefined || body === null) req.end();
    else if (typeof body === 'string' || body instanceof Uint8Array) req.end(body);
    else {
      // The request may fail mid-body (the server answered early, the connection broke): the answer or the
      // request's error settles the promise, so a failed pipeline needs no handling of its own.
      pipeline(Readable.fromWeb(body as import('node:stream/web').ReadableStream), req).catch(() => {});
    }
  });
}

async function answer(res: IncomingMessage): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = res.statusCode ?? 500;
  const empty = status === 204 || status === 205 || status === 304;
  return new Response(empty ? null : Buffer.concat(chunks), { status, headers });
}
