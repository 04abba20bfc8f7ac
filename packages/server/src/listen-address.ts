/**
 * Where the server listens (`PORT`, `HOST`), read apart from the other settings: `bin.ts` opens the listening
 * socket with it before it loads the modules the other settings need.
 */
export function listenAddress(env: NodeJS.ProcessEnv = process.env): { port: number; host: string } {
  return { port: integer(env.PORT, 5000, 'PORT'), host: env.HOST || 'localhost' };
}

/** A non-negative integer setting; `fallback` when unset or empty. */
export function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}
