import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { DocumentTuple, SnapshotDocument } from '../storage/backups.js';

/**
 * The document line of an archive, with the document's stored JSON text spliced in as it is: parsing and
 * encoding it again was most of a backup's time. Its keys are in the order `JSON.stringify` of the earlier writer
 * gave them, so `parseDocumentLine` reads archives of both. A text with a line break (none this server stores)
 * is encoded again, so that every line stays one JSON value.
 */
export function documentLine(
  collectionJson: string,
  [id, stored, createdAt, updatedAt]: DocumentTuple,
): string {
  // Two searches for one character each: a regular expression took a tenth of making the lines.
  const data = stored.includes('\n') || stored.includes('\r') ? JSON.stringify(JSON.parse(stored)) : stored;
  return `{"type":"document","collection":${collectionJson},"_id":${JSON.stringify(id)},"data":${data},"createdAt":${JSON.stringify(createdAt)},"updatedAt":${JSON.stringify(updatedAt)}}`;
}

/**
 * Lines gathered before they go to gzip: one compression (a gzip member of its own) and hash update per megabyte,
 * not one per line; a member's header and its fresh dictionary cost about one percent of the archive.
 */
export const LINE_BLOCK_BYTES = 1 << 20;

/**
 * Lines encoded to UTF-8 into one block of bytes, each ending in a line break: an archive is hashed and compressed
 * a block at a time, with no megabyte strings for the garbage collector. The block has an `ArrayBuffer` of its own,
 * so a thread that made it can hand it over without a copy.
 */
export class LineBlock {
  private used = 0;

  /** A block in `bytes`, over whatever they held. */
  constructor(private readonly bytes: Buffer) {}

  /** A block of `size` new bytes, or one that just holds `line` when the line is longer. */
  static sized(size: number, line?: string): LineBlock {
    const block = new LineBlock(
      Buffer.allocUnsafeSlow(Math.max(size, line === undefined ? 0 : maxBytes(line))),
    );
    if (line !== undefined) block.add(line);
    return block;
  }

  /** Adds the line; false, adding nothing, when it might not fit (UTF-8 takes at most 3 bytes per UTF-16 unit). */
  add(line: string): boolean {
    if (this.used + maxBytes(line) > this.bytes.length) return false;
    this.used += this.bytes.write(line, this.used);
    this.bytes[this.used++] = 0x0a;
    return true;
  }

  get empty(): boolean {
    return this.used === 0;
  }

  /** The lines' bytes (a view of the block, not a copy). */
  filled(): Buffer {
    return this.bytes.subarray(0, this.used);
  }
}

/** The most bytes a line and its line break can take. */
function maxBytes(line: string): number {
  return line.length * 3 + 1;
}

/** A document as the tuple `documentLine` takes. */
export function tupleOf(row: SnapshotDocument): DocumentTuple {
  return [row.id, row.data, row.createdAt, row.updatedAt];
}

/** A JSON string, escapes included. */
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const HEAD = new RegExp(`\\{"type":"document","collection":(${STRING}),"_id":(${STRING}),"data":`, 'y');
const TAIL = new RegExp(`,"createdAt":(${STRING}),"updatedAt":(${STRING})\\}$`, 'y');
const TAIL_START = ',"createdAt":';

/** A document line read without parsing its data: the collection, and the document with its data's JSON text. */
export interface DocumentLine {
  collection: string;
  document: SnapshotDocument;
}

/**
 * Reads a document line of the shape `documentLine` writes without parsing the document's data, which is the
 * text between the head and the last `,"createdAt":` (the tail holds two strings and so no such text). Returns
 * null for any other line; the caller then parses it whole. The data text is not checked here: whoever calls
 * this has checked the archive's checksum, or parses the data itself.
 */
export function parseDocumentLine(line: string): DocumentLine | null {
  HEAD.lastIndex = 0;
  const head = HEAD.exec(line);
  if (!head) return null;
  const tailAt = line.lastIndexOf(TAIL_START);
  if (tailAt < HEAD.lastIndex) return null;
  TAIL.lastIndex = tailAt;
  const tail = TAIL.exec(line);
  if (!tail) return null;
  return {
    collection: JSON.parse(head[1]!) as string,
    document: {
      id: JSON.parse(head[2]!) as string,
      data: line.slice(HEAD.lastIndex, tailAt),
      createdAt: JSON.parse(tail[1]!) as string,
      updatedAt: JSON.parse(tail[2]!) as string,
    },
  };
}

/**
 * The lines of a text stream (UTF-8), split by hand: readline's per-line events and regular expression were a
 * large part of reading an archive.
 */
export async function* splitLines(source: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of source) {
    const text = rest + decoder.write(chunk as Buffer);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield text.slice(start, end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
}
