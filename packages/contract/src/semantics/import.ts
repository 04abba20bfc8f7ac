const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A CSV cell as an import types it (unless `infer=false`): numbers, `true`/`false`, and empty cells as null;
 * anything else stays text, and so do numbers with leading zeros or more digits than a double keeps.
 */
export function inferCsvCell(cell: string): unknown {
  if (cell === '') return null;
  if (cell === 'true') return true;
  if (cell === 'false') return false;
  if (NUMBER.test(cell)) {
    const n = Number(cell);
    if (Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n))) return n;
  }
  return cell;
}
