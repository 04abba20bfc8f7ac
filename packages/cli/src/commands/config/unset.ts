import { Argument, Command } from 'commander';
import type { Factory } from '../../factory.js';
import { settingKey, settingKeys } from '../../settings/keys.js';
import { type Run, withExamples } from '../command.js';
import { targetProfile } from './target.js';

/** Options of `dp config unset`. */
export interface ConfigUnsetOptions {
  key: string;
}

/** `dp config unset <key>`. */
export function newConfigUnsetCommand(f: Factory, run: Run<ConfigUnsetOptions> = runConfigUnset): Command {
  const command = new Command('unset')
    .description('Remove a setting from the profile')
    .addArgument(new Argument('<key>', 'setting').choices(settingKeys.map((k) => k.name)))
    .action((key: string) => run(f, { key }));
  return withExamples(command, ['dp config unset token', 'dp config unset api-key --profile ci']);
}

/** Removes the value; succeeds when it was not set either (`--json`: `{ profile, key, removed }`). */
export async function runConfigUnset(f: Factory, options: ConfigUnsetOptions): Promise<void> {
  const key = settingKey(options.key);
  const profile = await targetProfile(f);
  const removed = (await f.store()).unset(profile, key.field);
  const out = await f.output();
  if (out.json) await out.writeJson({ profile, key: key.name, removed });
  if (removed) out.success(`Removed ${key.name} from profile "${profile}"`);
  else out.note(`${key.name} was not set in profile "${profile}"`);
}
