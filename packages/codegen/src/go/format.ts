/**
 * Aligns the generated Go the way gofmt does, so the files read as any Go (the Go tests check with `gofmt -l`)
 * without the generator needing a Go toolchain: within a struct, each run of field lines (a comment line ends a
 * run) has its names and types padded to the widest; within a const block, each run has its names padded.
 */
export function alignGo(text: string): string {
  const lines = text.split('\n');
  let block: 'struct' | 'const' | null = null;
  let run: number[] = [];
  const flush = () => {
    if (run.length > 0) {
      const cells = run.map((i) => (block === 'const' ? constCells(lines[i]!) : fieldCells(lines[i]!)));
      const widths: number[] = [];
      for (const row of cells)
        row.slice(0, -1).forEach((cell, c) => {
          widths[c] = Math.max(widths[c] ?? 0, cell.length);
        });
      run.forEach((i, r) => {
        const row = cells[r]!;
        lines[i] =
          `\t${row.map((cell, c) => (c < row.length - 1 ? cell.padEnd(widths[c]!) : cell)).join(' ')}`;
      });
    }
    run = [];
  };
  lines.forEach((line, i) => {
    if (/^type \w+ struct \{$/.test(line)) block = 'struct';
    else if (line === 'const (') block = 'const';
    else if (block && (line === '}' || line === ')')) {
      flush();
      block = null;
    } else if (block && /^\t\S/.test(line) && !line.startsWith('\t//')) run.push(i);
    else flush();
  });
  return lines.join('\n');
}

/** `Name Type` or `Name Type \`tag\``. */
function fieldCells(line: string): string[] {
  const match = /^\t(\S+) (\S+)(?: (`.*`))?$/.exec(line);
  if (!match) throw new Error(`not a field line: ${line}`);
  return match[3] ? [match[1]!, match[2]!, match[3]] : [match[1]!, match[2]!];
}

/** `Name = value`. */
function constCells(line: string): string[] {
  const match = /^\t(\S+) (= .*)$/.exec(line);
  if (!match) throw new Error(`not a const line: ${line}`);
  return [match[1]!, match[2]!];
}
