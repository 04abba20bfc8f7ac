import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { VerifyOptions, WebhookVerificationErrorCode } from '../src/index.js';

/** One entry of spec/webhooks/vectors.json (format: spec/webhooks/README.md). */
export interface Vector {
  id: string;
  comment: string;
  secrets: string[];
  body: string;
  headers: Record<string, string | string[]>;
  now: number;
  toleranceSeconds: number;
  expected: { valid: true } | { valid: false; code: WebhookVerificationErrorCode };
}

export const VECTORS_DIR = fileURLToPath(new URL('../../../spec/webhooks/', import.meta.url));

export const vectors: Vector[] = JSON.parse(readFileSync(`${VECTORS_DIR}vectors.json`, 'utf8')).vectors;

/** The secret argument: the string itself for one secret, so both forms of the API are exercised. */
export function secretArgument(vector: Vector): string | string[] {
  return vector.secrets.length === 1 ? vector.secrets[0]! : vector.secrets;
}

/** The options of a vector; the default tolerance is left out so that the verifier's default is exercised. */
export function optionsOf(vector: Vector): VerifyOptions {
  const options: VerifyOptions = { now: new Date(vector.now * 1000) };
  if (vector.toleranceSeconds !== 300) options.toleranceSeconds = vector.toleranceSeconds;
  return options;
}

/** Runs the generator's own staleness check. */
export function checkVectorsAreCurrent(): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [`${VECTORS_DIR}generate.mjs`, '--check'], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
