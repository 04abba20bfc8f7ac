import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Command } from 'commander';
import { attempt, UsageError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** Options of `dp functions deploy`. */
export interface FunctionsDeployOptions {
  file: string;
  /** The function's name; the file's name without its extension when left out. */
  name?: string | undefined;
  timeoutMs?: number | undefined;
  memoryMb?: number | undefined;
  /** The cluster of a new function; the default cluster when left out (a flag for it is still to come). */
  clusterId?: string | undefined;
}

/** `dp functions deploy <file>`: creates the function, or deploys a new version of the one with that name. */
export function newFunctionsDeployCommand(
  f: Factory,
  run: Run<FunctionsDeployOptions> = runFunctionsDeploy,
): Command {
  const command = new Command('deploy')
    .description('Deploy a JavaScript module as a function: a new one, or a new version of the same name')
    .argument('<file>', 'the module: `export default async function (input, ctx) { … }`')
    .option('--name <name>', "the function's name (default: the file's name without its extension)")
    .option('--timeout-ms <ms>', 'time limit of a run, 1 to 30000 (default 1000)', wholeNumber(1, 30_000))
    .option('--memory-mb <mb>', 'heap limit, 8 to 256 (default 64)', wholeNumber(8, 256))
    .action((file: string, options: Omit<FunctionsDeployOptions, 'file'>) =>
      run(f, { file, name: options.name, timeoutMs: options.timeoutMs, memoryMb: options.memoryMb }),
    );
  return withExamples(command, [
    'dp functions deploy hello.js',
    'dp functions deploy ./src/notify.mjs --name notify --timeout-ms 5000',
  ]);
}

/** Reads the file, then creates the function or deploys the next version of the one that has its name. */
export async function runFunctionsDeploy(f: Factory, options: FunctionsDeployOptions): Promise<void> {
  const code = await readFile(options.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `could not read ${options.file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
    );
  });
  const name = options.name ?? basename(options.file, extname(options.file));
  const client = await sessionClient(f);
  const limits = { timeoutMs: options.timeoutMs, memoryMb: options.memoryMb };
  const existing = await attempt(
    'list functions',
    client.functions.list({ clusterId: options.clusterId, limit: 1000 }),
  );
  const same = existing.data.find((fn) => fn.name === name);
  const deployed = same
    ? await attempt(`deploy function "${name}"`, client.functions.deploy(same._id, { code, ...limits }))
    : await attempt(
        `create function "${name}"`,
        client.functions.create({ name, code, ...limits, clusterId: options.clusterId }),
      );
  const out = await f.output();
  if (out.json) return void (await out.writeJson(deployed));
  if (!out.tty) return void (await out.writeJsonLine(deployed));
  await out.writeTable(
    ['id', 'name', 'version', 'timeout ms', 'memory MiB'],
    [[deployed._id, deployed.name, deployed.version, deployed.timeoutMs, deployed.memoryMb]],
  );
  out.success(`Deployed ${deployed.name} version ${deployed.version}`);
}
