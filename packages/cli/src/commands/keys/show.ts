import type { ApiKey, ApiKeyWithSecret } from '@dataplatform/sdk';
import type { Output } from '../../output/printer.js';

/** One row of `dp keys list`: what a person needs to tell keys apart. */
export function keyRow(key: ApiKey): unknown[] {
  return [
    key._id,
    key.name,
    key.status,
    key.scopes.join(','),
    key.expiresAt ?? 'never',
    key.lastUsedAt ?? '-',
  ];
}

export const KEY_HEADER = ['id', 'name', 'status', 'scopes', 'expires', 'last used'];

/** A key record: the record with --json, a JSON line when piped, a one-line summary on a terminal. */
export async function writeKey(out: Output, key: ApiKey): Promise<void> {
  if (out.json) return void (await out.writeJson(key));
  if (!out.tty) return void (await out.writeJsonLine(key));
  await out.writeTable(KEY_HEADER, [keyRow(key)]);
}

/**
 * A new or rotated key: `{ key, secret }` with --json; otherwise the secret alone on standard output (so
 * `KEY=$(dp keys create …)` captures it) and what it is on standard error. The secret is never shown again.
 */
export async function writeSecret(out: Output, created: ApiKeyWithSecret, verb: string): Promise<void> {
  if (out.json) return void (await out.writeJson(created));
  await out.write(`${created.secret}\n`);
  out.success(`${verb} key ${created.key._id} (${created.key.name}); the secret above is shown only once`);
}
