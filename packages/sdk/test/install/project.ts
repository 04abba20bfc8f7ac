import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's packages folder. */
export const PACKAGES = fileURLToPath(new URL('../../..', import.meta.url));

const made: string[] = [];

/** A new empty folder under the system's temporary one, removed by `removeTemporaryFolders`. */
export function temporaryFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder `temporaryFolder` made. */
export function removeTemporaryFolders(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** What a finished child process said. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the test worker (installs wait on the network, not on this process). */
export function run(command: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: userEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The environment as a user's shell has it: without what pnpm gives its scripts (NODE_PATH to the workspace's
 * packages, with which `require` would find what the project lacks; npm_config_* settings) or a test loader.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|pnpm_|NODE_PATH$|NODE_OPTIONS$)/i.test(name)),
  );
  return { ...env, npm_config_update_notifier: 'false' };
}

/** Like `run`, but a non-zero exit fails with what the command printed. */
export async function must(command: string, args: string[], cwd: string): Promise<string> {
  const ran = await run(command, args, cwd);
  if (ran.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${ran.code}:\n${ran.stdout}\n${ran.stderr}`);
  }
  return ran.stdout;
}

/**
 * Packs a workspace package as it would be published (`workspace:*` becomes the version) and returns the
 * tarball's path. Packing takes the built `dist/`, so a build must have run (`pnpm build`, part of `pnpm check`).
 */
export async function pack(name: string, destination: string): Promise<string> {
  const dir = join(PACKAGES, name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    main?: string;
    bin?: object;
  };
  const built = manifest.main ?? Object.values(manifest.bin ?? {})[0];
  if (typeof built === 'string' && !existsSync(join(dir, built))) {
    throw new Error(`packages/${name} has no ${built}: run \`pnpm build\` first`);
  }
  const out = await must('pnpm', ['pack', '--pack-destination', destination], dir);
  const tarball = out.trim().split('\n').pop() ?? '';
  if (!tarball.endsWith('.tgz')) throw new Error(`pnpm pack printed no tarball for ${name}:\n${out}`);
  return tarball;
}

/**
 * An empty project with the tarballs installed the way a user installs packages: npm, from the registry for
 * third-party dependencies (the local npm cache first), lifecycle scripts off.
 */
export async function installInEmptyProject(tarballs: string[]): Promise<string> {
  const dir = temporaryFolder('dp-install-');
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'user-project', private: true })}\n`);
  await must(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      ...tarballs,
    ],
    dir,
  );
  return dir;
}

/** Kilobytes a folder takes on disk, as `du -sk` counts them. */
export async function diskKB(dir: string): Promise<number> {
  return Number.parseInt((await must('du', ['-sk', dir], dir)).split('\t')[0] ?? '', 10);
}
