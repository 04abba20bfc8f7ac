import { describe, expect, it } from 'vitest';
import { noStyle } from './color.js';
import { cellText, renderTable, renderTsv } from './table.js';

describe('tables', () => {
  it('pads columns to their widest cell', () => {
    expect(
      renderTable(
        ['id', 'name'],
        [
          ['a', 'Ada Lovelace'],
          ['bb', 'Bob'],
        ],
        80,
        noStyle,
      ),
    ).toBe('id  name\na   Ada Lovelace\nbb  Bob\n');
  });

  it('shortens the widest columns with … until the table fits the width', () => {
    const out = renderTable(['id', 'note'], [['o-1', 'x'.repeat(40)]], 20, noStyle);
    expect(out).toBe(`id   note\no-1  ${'x'.repeat(14)}…\n`);
    for (const line of out.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(20);
  });

  it('writes values on one line: objects as JSON, line breaks and tabs as spaces', () => {
    expect([{ city: 'Oslo' }, 'a\tb\nc', 42, null, undefined].map(cellText)).toEqual([
      '{"city":"Oslo"}',
      'a b c',
      '42',
      'null',
      '',
    ]);
  });

  it('gives programs tab-separated rows without a header', () => {
    expect(
      renderTsv([
        ['a', '1'],
        ['b', ''],
      ]),
    ).toBe('a\t1\nb\t\n');
  });
});
