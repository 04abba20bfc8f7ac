import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseJsonSchema } from '../src/case.js';
import { CASES_DIR, loadCases } from '../src/load.js';

describe('the cases of spec/conformance', () => {
  it('are all of the documented format', () => {
    expect(loadCases().length).toBeGreaterThan(0);
  });

  it('keep case.schema.json in step with the format', () => {
    const committed = JSON.parse(readFileSync(join(CASES_DIR, 'case.schema.json'), 'utf8'));
    expect(committed, 'spec/conformance/case.schema.json is stale: run `pnpm codegen`').toEqual(
      caseJsonSchema(),
    );
  });
});
