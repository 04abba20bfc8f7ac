import { Argument, Command } from 'commander';
import { CliError } from '../../errors/cli-error.js';
import { ExitCode } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { settingKey, settingKeys } from '../../settings/keys.js';
import { type Run, withExamples } from '../command.js';
import { targetProfile } from './target.js';

/** Options of `dp config get`. */
export interface ConfigGetOptions {
  key: string;
}

/** `dp config get <key>`. */
export function newConfigGetCommand(f: Factory, run: Run<ConfigGetOptions> = runConfigGet): Command {
  const command = new Command('get')
    .description(
      'Print a setting saved in the profile, secrets included (`dp config list` shows what is in effect)',
    )
    .addArgument(new Argument('<key>', 'setting').choices(settingKeys.map((k) => k.name)))
    .action((key: string) => run(f, { key }));
  return withExamples(command, ['dp config get base-url', 'dp config get api-key --profile ci']);
}

/** Prints the stored value (`--json`: `{ profile, key, value }`); exit status 4 when it is not set. */
export async function runConfigGet(f: Factory, options: ConfigGetOptions): Promise<void> {
  const key = settingKey(options.key);
  const profile = await targetProfile(f);
  const stored = (await f.store()).read().profiles[profile];
  const value = stored && Object.hasOwn(stored, key.field) ? stored[key.field] : undefined;
  if (value === undefined) {
    throw new CliError(`${key.name} is not set in profile "${profile}"`, {
      exitCode: ExitCode.notFound,
      hint: '`dp config list` shows every setting in effect and where it comes from',
    });
  }
  const out = await f.output();
  if (out.json) await out.writeJson({ profile, key: key.name, value });
  else await out.write(`${value}\n`);
}
