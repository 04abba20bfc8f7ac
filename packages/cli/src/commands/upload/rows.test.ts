import { describe, expect, it } from 'vitest';
import { isGzip, rowCounter, sniffFormat } from './rows.js';

/** The count of the whole text at once, and of the text cut into chunks of one byte (every boundary a chunk's). */
function counts(format: 'ndjson' | 'json' | 'csv', text: string): [number, number] {
  const bytes = Buffer.from(text);
  const whole = rowCounter(format);
  const byByte = rowCounter(format);
  let bytewise = 0;
  for (let i = 0; i < bytes.length; i++) bytewise += byByte.push(bytes.subarray(i, i + 1));
  return [whole.push(bytes) + whole.end(), bytewise + byByte.end()];
}

const csv200 = `name,n\n${Array.from({ length: 200 }, (_, i) => `row ${i},${i}`).join('\n')}\n`;

describe('rows of an upload, counted as the server counts them', () => {
  it.each([
    { format: 'csv', text: csv200, rows: 200, why: 'a header and 200 rows: the header is no row' },
    { format: 'csv', text: csv200.trimEnd(), rows: 200, why: 'no line break after the last row' },
    { format: 'csv', text: 'a,b\n1,2\n\n\n3,4\n\n', rows: 2, why: 'blank lines are passed over' },
    { format: 'csv', text: '\n\na,b\n1,2\n', rows: 1, why: 'blank lines before the header too' },
    { format: 'csv', text: 'a,b\r\n1,2\r\n3,4\r\n', rows: 2, why: 'CRLF line breaks' },
    { format: 'csv', text: 'a,b\r1,2\r3,4', rows: 2, why: 'CR line breaks' },
    { format: 'csv', text: 'a,b\n"x\ny",1\n"say ""hi""\n",2\n', rows: 2, why: 'line breaks inside quotes' },
    { format: 'csv', text: 'a,b\n""\n1,2\n', rows: 1, why: 'a record of one empty quoted cell is blank' },
    {
      format: 'csv',
      text: 'a,b\n \n,\n1\n',
      rows: 3,
      why: 'a space, two empty cells, a short row: rows all',
    },
    { format: 'csv', text: 'a,b\n1,2\r\n', rows: 1, why: 'after \\n breaks, \\r is part of a cell' },
    { format: 'csv', text: 'a,b\r\n1\n2,3\r\n', rows: 1, why: 'after \\r\\n breaks, \\n is part of a cell' },
    {
      format: 'csv',
      text: '\uFEFFa\n\uFEFF\n',
      rows: 1,
      why: 'a byte order mark is dropped only at the start',
    },
    { format: 'csv', text: 'a,b\n"1,2\n', rows: 0, why: 'a quote never closed' },
    { format: 'csv', text: 'a,b\n', rows: 0, why: 'a header alone' },
    { format: 'csv', text: '', rows: 0, why: 'nothing' },
    { format: 'ndjson', text: '{"n":1}\n{"n":2}\nnope\n', rows: 3, why: 'a bad line is a row' },
    { format: 'ndjson', text: '{"n":1}\n\n  \t\n{"n":2}', rows: 2, why: 'blank lines; no last line break' },
    { format: 'ndjson', text: '{"n":1}\r\n\r\n{"n":2}\r\n', rows: 2, why: 'CRLF, and a line of \\r alone' },
    {
      format: 'ndjson',
      text: '\u00a0\u3000\n\uFEFF\n\u00e9\n',
      rows: 1,
      why: 'Unicode spaces are blank, é is not',
    },
    { format: 'json', text: '[{"a":1},{"b":[1,2]}, 3]', rows: 3, why: 'elements, nested ones inside' },
    {
      format: 'json',
      text: '[\n  {"s":"],[{\\"}"},\n  "x"\n]\n',
      rows: 2,
      why: 'brackets and quotes in strings',
    },
    { format: 'json', text: '[]', rows: 0, why: 'an empty array' },
    { format: 'json', text: '{"a":1}', rows: 0, why: 'not an array: the server stops' },
    { format: 'json', text: '[1,,2]', rows: 1, why: 'two commas: the server stops there' },
  ] as const)('$format: $why', ({ format, text, rows }) => {
    expect(counts(format, text)).toEqual([rows, rows]);
  });

  it.each([
    ['[{"a":1}]', 'json'],
    ['\uFEFF  {"a":1}', 'ndjson'],
    ['name,age', 'csv'],
    ['', 'csv'],
  ])('sniffs %j as %s, as the server does when no format is given', (text, format) => {
    expect(sniffFormat(Buffer.from(text))).toBe(format);
  });

  it('knows gzip by its first bytes', () => {
    expect([isGzip(Buffer.from([0x1f, 0x8b, 8])), isGzip(Buffer.from('{}'))]).toEqual([true, false]);
  });
});
