import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Go module's folder. */
export const MODULE = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The staticcheck release the checks use; .ci/run installs it with `go install` into GOPATH/bin. */
export const STATICCHECK = 'honnef.co/go/tools/cmd/staticcheck@v0.8.2';

/** The `go` command when it is Go 1.23 or later (the module's `go` line), else null (the caller skips). */
export async function goCommand(): Promise<string | null> {
  try {
    const { stdout } = await run('go', ['env', 'GOVERSION']);
    const [major, minor] = stdout.trim().replace(/^go/, '').split('.').map(Number);
    return major! > 1 || (major === 1 && minor! >= 23) ? 'go' : null;
  } catch {
    return null;
  }
}

/** The installed staticcheck (GOPATH/bin), or null. */
export async function staticcheckCommand(): Promise<string | null> {
  const { stdout } = await run('go', ['env', 'GOPATH']);
  const bin = join(stdout.trim().split(':')[0]!, 'bin', 'staticcheck');
  return existsSync(bin) ? bin : null;
}
