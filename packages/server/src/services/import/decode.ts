import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** The first bytes of every gzip stream (RFC 1952). */
function isGzip(chunk: Buffer): boolean {
  return chunk.length >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b;
}

async function* prepend(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/**
 * The body's bytes, gunzipped when `Content-Encoding: gzip` says so or its first bytes do (a `.gz` file sent
 * as is). The request is pulled only as fast as the caller reads, so memory holds a chunk or two.
 */
export async function* decodedBody(body: AsyncIterable<Buffer>, gzipHeader: boolean): AsyncGenerator<Buffer> {
  const iterator = body[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const source = prepend(first.value, iterator);
  if (!gzipHeader && !isGzip(first.value)) {
    yield* source;
    return;
  }
  const gunzip = createGunzip();
  // pipeline, not pipe: a request that breaks off must end the gunzip stream with its error, not leave it waiting.
  pipeline(Readable.from(source), gunzip, () => {});
  yield* gunzip as AsyncIterable<Buffer>;
}
