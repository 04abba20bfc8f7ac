import { describe, expect, it } from 'vitest';
import { checkImportEncoding, importFormat, importFormatOfMediaType } from './import-source.js';

describe('importFormatOfMediaType', () => {
  it.each([
    ['application/x-ndjson', 'ndjson'],
    ['application/ndjson; charset=utf-8', 'ndjson'],
    ['Application/JSONL', 'ndjson'],
    ['application/x-jsonlines', 'ndjson'],
    ['application/json', 'json'],
    [' text/csv ; header=present', 'csv'],
  ])('reads %s as %s', (type, format) => {
    expect(importFormatOfMediaType(type)).toBe(format);
  });

  it.each([['application/octet-stream'], ['application/gzip'], [''], [null], [undefined]])(
    'leaves the format open for %s',
    (type) => {
      expect(importFormatOfMediaType(type)).toBeUndefined();
    },
  );
});

describe('importFormat', () => {
  it('takes the format asked for over what the body shows', () => {
    expect(importFormat('csv', '{"a":1}')).toBe('csv');
  });

  it.each([
    ['[{"a":1}]', 'json'],
    ['\uFEFF  \n[', 'json'],
    ['{"a":1}\n{"a":2}', 'ndjson'],
    ['a,b\n1,2', 'csv'],
    ['   ', 'csv'],
    ['', 'ndjson'],
  ])('sniffs %j as %s', (start, format) => {
    expect(importFormat(undefined, start)).toBe(format);
  });
});

describe('checkImportEncoding', () => {
  it.each([
    [undefined, false],
    ['', false],
    [' Identity ', false],
    ['gzip', true],
    ['X-GZIP', true],
  ])('reads %j as gzip=%s', (header, gzip) => {
    expect(checkImportEncoding(header)).toBe(gzip);
  });

  it('refuses an encoding it cannot read, naming the header', () => {
    expect(checkImportEncoding('br')).toEqual({
      code: 'validation_error',
      message: 'Content-Encoding "br" is not supported; send gzip or nothing',
      details: { in: 'header', field: 'content-encoding' },
    });
  });
});
