import { readFileSync } from 'node:fs';

/** The API key: DATAPLATFORM_API_KEY, or the development key the server wrote on its first start. */
export function apiKey(): string {
  if (process.env.DATAPLATFORM_API_KEY) return process.env.DATAPLATFORM_API_KEY;
  const file = new URL('../../../.dataplatform/dev-credentials.json', import.meta.url);
  try {
    return JSON.parse(readFileSync(file, 'utf8')).apiKey;
  } catch {
    throw new Error(
      'Set DATAPLATFORM_API_KEY, or start the server once (`pnpm start` at the repository root) to create a key',
    );
  }
}
