import { execFile, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The Java package's folder, where its pom.xml is. */
export const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every Maven run of the tests: batch mode, no download progress, one thread (the machine's two cores are shared).
 * Dependencies and plugins come from Maven Central into ~/.m2 the first time and are read from there afterwards.
 */
const COMMON = ['-B', '-ntp', '-T1', '-Dstyle.color=never'];

export async function hasMaven(): Promise<boolean> {
  try {
    await promisify(execFile)('mvn', ['-v']);
    await promisify(execFile)('javac', ['-version']);
    return true;
  } catch {
    return false;
  }
}

export interface MavenRun {
  code: number | null;
  output: string;
  run: number;
  failed: number;
  skipped: number;
  /** Each test class's totals, by its name (`ConformanceTest`). */
  classes: Map<string, { run: number; failed: number; skipped: number }>;
}

/** Runs Maven in the package without blocking the event loop the reference servers answer on. */
export function mvn(args: string[], env: Record<string, string> = {}): Promise<MavenRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('mvn', [...COMMON, ...args], {
      cwd: PACKAGE,
      // The client reads these when no option is given: a developer's own must not leak into the tests.
      env: {
        ...process.env,
        DATAPLATFORM_API_KEY: '',
        DATAPLATFORM_TOKEN: '',
        DATAPLATFORM_BASE_URL: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      // Surefire's total comes last: "Tests run: 9, Failures: 0, Errors: 0, Skipped: 1".
      const totals = [
        ...output.matchAll(/Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$/gm),
      ].at(-1);
      const count = (i: number) => Number(totals?.[i] ?? 0);
      const classes = new Map<string, { run: number; failed: number; skipped: number }>();
      const perClass =
        /Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+), .* -- in [\w.]*\.(\w+)$/gm;
      for (const m of output.matchAll(perClass)) {
        classes.set(m[5]!, { run: Number(m[1]), failed: Number(m[2]) + Number(m[3]), skipped: Number(m[4]) });
      }
      resolve({ code, output, run: count(1), failed: count(2) + count(3), skipped: count(4), classes });
    });
  });
}
