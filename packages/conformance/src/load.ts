import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Case } from './case.js';

/** The folder of the cases: spec/conformance at the root of the repository. */
export const CASES_DIR = fileURLToPath(new URL('../../../spec/conformance', import.meta.url));

/** A case and where it is written, `<area>/<case>` (without `.json`). */
export interface LoadedCase {
  id: string;
  case: Case;
}

/** Every case under spec/conformance, ordered by id; throws naming the file when one is not of the format. */
export function loadCases(dir: string = CASES_DIR): LoadedCase[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json') && file.includes('/'))
    .sort();
  return files.map((file) => {
    const id = relative(dir, join(dir, file)).replace(/\.json$/, '');
    const parsed = Case.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    if (!parsed.success) throw new Error(`spec/conformance/${file}: ${parsed.error.message}`);
    return { id, case: parsed.data };
  });
}
