import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built binary (test/setup/build.ts builds it before the suites run). */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** What one run of the binary did. */
export interface BinResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/bin.js …args` as its own process, with only the environment given (plus PATH and HOME), and
 * waits for it without blocking this process, which may be serving its requests.
 */
export function dp(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
        encoding: 'utf8',
        timeout: 30_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}
