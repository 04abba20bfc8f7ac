import { isUtf8 } from 'node:buffer';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SourceError } from './rows.js';

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

function countNewlines(chunk: Buffer): number {
  let count = 0;
  for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) count++;
  return count;
}

/** Length of the UTF-8 sequence a lead byte starts (1 for ASCII and for bytes no sequence starts with). */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/** How many bytes at the end of `chunk` begin a UTF-8 sequence that the chunk does not finish (0 to 3). */
function unfinishedTail(chunk: Buffer): number {
  for (let back = 1; back <= Math.min(3, chunk.length); back++) {
    const byte = chunk[chunk.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    return sequenceLength(byte) > back ? back : 0;
  }
  return 0;
}

/**
 * Passes the chunks on as they are while checking that together they are UTF-8 text, with a sequence split between
 * chunks checked once both halves are there. Bytes that are not UTF-8 stop the import with `invalid_utf8` rather
 * than being stored as U+FFFD.
 */
export async function* utf8Checked(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let carry: Buffer | null = null;
  let line = 1;
  const refuse = () =>
    new SourceError(
      'invalid_utf8',
      'The body is not UTF-8 text from this line on: send it encoded as UTF-8',
      line,
    );
  for await (const chunk of chunks) {
    let start = 0;
    if (carry) {
      start = Math.min(sequenceLength(carry[0]!) - carry.length, chunk.length);
      const joined: Buffer = Buffer.concat([carry, chunk.subarray(0, start)]);
      carry = null;
      if (start === chunk.length && joined.length < sequenceLength(joined[0]!)) carry = joined;
      else if (!isUtf8(joined)) throw refuse();
    }
    const tail: number = carry ? 0 : unfinishedTail(chunk.subarray(start));
    if (!isUtf8(chunk.subarray(start, chunk.length - tail))) throw refuse();
    if (tail > 0) carry = Buffer.from(chunk.subarray(chunk.length - tail));
    yield chunk;
    line += countNewlines(chunk);
  }
  if (carry) throw refuse();
}
