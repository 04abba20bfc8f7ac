import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CASES_DIR } from './load.js';

/** spec/conformance/uncovered.json: documented error codes no case can cause, each with its reason. */
export const Uncovered = z.strictObject({
  $comment: z.string().optional(),
  /** Codes left out on every route that documents them. */
  everyRoute: z.record(z.string(), z.string().min(1)),
  /** Codes left out on one route, by route id. */
  routes: z.record(z.string(), z.record(z.string(), z.string().min(1))),
});

/** The parsed list of error codes the cases leave out. */
export type Uncovered = z.infer<typeof Uncovered>;

/** Reads spec/conformance/uncovered.json. */
export function loadUncovered(dir: string = CASES_DIR): Uncovered {
  return Uncovered.parse(JSON.parse(readFileSync(join(dir, 'uncovered.json'), 'utf8')));
}
