import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { caseJsonSchema } from '../src/case.js';
import { coverageOf, reachableErrors } from '../src/coverage.js';
import { CASES_DIR, loadCases } from '../src/load.js';
import { loadUncovered } from '../src/uncovered.js';

const cases = loadCases();
const coverage = coverageOf(cases);
const uncovered = loadUncovered();

describe('the cases of spec/conformance', () => {
  it('are all of the documented format', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it('keep case.schema.json in step with the format', () => {
    const committed = JSON.parse(readFileSync(join(CASES_DIR, 'case.schema.json'), 'utf8'));
    expect(committed, 'spec/conformance/case.schema.json is stale: run `pnpm codegen`').toEqual(
      caseJsonSchema(),
    );
  });

  it('call every route of the contract', () => {
    const missing = routes.filter((route) => !coverage.routes.has(route.id));
    expect(missing.map((route) => `${route.id} (${route.method} ${route.path})`)).toEqual([]);
  });

  it('cause every error code a route documents, or say in uncovered.json why not', () => {
    const missing: string[] = [];
    for (const route of routes) {
      const caused = coverage.codes.get(route.id) ?? new Set<string>();
      const excused = { ...uncovered.everyRoute, ...uncovered.routes[route.id] };
      for (const code of reachableErrors(route))
        if (!caused.has(code) && !(code in excused)) missing.push(`${route.id}: ${code}`);
    }
    expect(missing, 'write a case for each, or list it with its reason in uncovered.json').toEqual([]);
  });

  it('list in uncovered.json only codes that routes document and no case causes', () => {
    const stale: string[] = [];
    for (const [id, codes] of Object.entries(uncovered.routes)) {
      const route = routes.find((r) => r.id === id);
      if (!route) {
        stale.push(`${id}: no such route`);
        continue;
      }
      for (const code of Object.keys(codes)) {
        if (!reachableErrors(route).includes(code)) stale.push(`${id}: ${code} is not documented`);
        if (coverage.codes.get(id)?.has(code)) stale.push(`${id}: ${code} has a case now`);
      }
    }
    expect(stale).toEqual([]);
  });
});
