import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { documentLine, parseDocumentLine, splitLines, tupleOf } from '../src/services/backup-lines.js';

/** Lines the earlier writer made, `JSON.stringify` of a parsed document: a restore reads both kinds. */
const stringified = (collection: string, id: string, data: unknown) =>
  JSON.stringify({ type: 'document', collection, _id: id, data, createdAt: 'c', updatedAt: 'u' });

describe('backup document lines', () => {
  it('writes the stored text as it is, a line that is the JSON of the document', () => {
    const row = { id: 'a"b', data: '{"n": 1, "s": "x\\"y"}', createdAt: 'c', updatedAt: 'u' };
    const line = documentLine(JSON.stringify('or"ders'), tupleOf(row));
    expect(JSON.parse(line)).toEqual({
      type: 'document',
      collection: 'or"ders',
      _id: 'a"b',
      data: { n: 1, s: 'x"y' },
      createdAt: 'c',
      updatedAt: 'u',
    });
    expect(parseDocumentLine(line)).toEqual({ collection: 'or"ders', document: row });
  });

  it('encodes again a stored text with a line break, so the line stays one line', () => {
    const line = documentLine('"o"', ['i', '{\n"n":1}', 'c', 'u']);
    expect(line).not.toMatch(/\n/);
    expect(parseDocumentLine(line)?.document.data).toBe('{"n":1}');
  });

  it('takes the data up to the last createdAt, whatever the data holds', () => {
    const data = { x: { createdAt: 'inner', updatedAt: 'inner' }, createdAt: 'also', s: ',"createdAt":"z"' };
    const parsed = parseDocumentLine(stringified('o', 'i', data))!;
    expect(JSON.parse(parsed.document.data)).toEqual(data);
    expect(parsed.document).toMatchObject({ id: 'i', createdAt: 'c', updatedAt: 'u' });
  });

  it('reads no other line as a document', () => {
    expect(parseDocumentLine('{"type":"collection","name":"o","validator":null,"indexes":[]}')).toBeNull();
    expect(
      parseDocumentLine(
        '{"type":"document","collection":"o","_id":1,"data":{},"createdAt":"c","updatedAt":"u"}',
      ),
    ).toBeNull();
    expect(parseDocumentLine('{"type":"document","collection":"o","_id":"i","data":{}}')).toBeNull();
  });

  it('splits lines across chunks and multi-byte characters', async () => {
    const text = 'ab\nçé€\n\nlast';
    const bytes = Buffer.from(text);
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    const lines: string[] = [];
    for await (const line of splitLines(Readable.from(chunks))) lines.push(line);
    expect(lines).toEqual(['ab', 'çé€', '', 'last']);
  });
});
