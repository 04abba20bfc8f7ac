import type { Style } from './color.js';

/** Renders one cell: strings as they are, anything else as compact JSON, on one line. */
export function cellText(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  return text.replace(/[\t\r\n]+/g, ' ');
}

/**
 * A table for a person: a dim header (names as they are: field names are case-sensitive), columns padded to their widest cell, the widest columns shortened with
 * "…" until the table fits `width`.
 */
export function renderTable(header: string[], rows: string[][], width: number, style: Style): string {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const gap = 2;
  let total = widths.reduce((sum, w) => sum + w, 0) + gap * (widths.length - 1);
  // Shrink the widest column one character at a time; no column goes below 6 characters.
  while (total > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= 6) break;
    widths[widest]!--;
    total--;
  }
  const line = (cells: string[], styleCell: (text: string) => string) =>
    cells
      .map((cell, i) => {
        const w = widths[i]!;
        const fitted = cell.length > w ? `${cell.slice(0, w - 1)}…` : cell;
        return i === cells.length - 1 ? styleCell(fitted) : styleCell(fitted.padEnd(w));
      })
      .join(' '.repeat(gap))
      .trimEnd();
  const out = [line(header, style.dim)];
  for (const row of rows) out.push(line(row, (t) => t));
  return `${out.join('\n')}\n`;
}

/** The same rows for a program: tab-separated, no header, nothing shortened. */
export function renderTsv(rows: string[][]): string {
  return rows.map((row) => `${row.join('\t')}\n`).join('');
}
