import { Argument, Command } from 'commander';
import type { Factory } from '../../factory.js';
import { readSource } from '../../input/source.js';
import { checkSettingValue, settingKey, settingKeys } from '../../settings/keys.js';
import { type Run, withExamples } from '../command.js';
import { targetProfile } from './target.js';

/** Options of `dp config set`. */
export interface ConfigSetOptions {
  key: string;
  /** The value; `-` or undefined reads it from standard input (so a secret stays out of the shell history). */
  value?: string | undefined;
}

/** `dp config set <key> [value]`. */
export function newConfigSetCommand(f: Factory, run: Run<ConfigSetOptions> = runConfigSet): Command {
  const command = new Command('set')
    .description('Save a setting in the profile (--profile, else the current one); creates the profile')
    .addArgument(new Argument('<key>', 'setting').choices(settingKeys.map((k) => k.name)))
    .argument('[value]', 'the value, @file, or - for standard input (the default when piped)')
    .action((key: string, value: string | undefined) => run(f, { key, value }));
  return withExamples(command, [
    'dp config set base-url https://data.example.com',
    'dp config set api-key < key.txt                 # the secret never appears in the shell history',
    'dp config set api-key svc_… --profile staging',
  ]);
}

/** Stores the value; prints `{ profile, key }` with --json. */
export async function runConfigSet(f: Factory, options: ConfigSetOptions): Promise<void> {
  const key = settingKey(options.key);
  const source = await readSource(f.io, options.value, `value of ${key.name}`);
  const value = checkSettingValue(key, source.text);
  const profile = await targetProfile(f);
  const store = await f.store();
  store.set(profile, key.field, value);
  const out = await f.output();
  if (out.json) await out.writeJson({ profile, key: key.name });
  out.success(`Saved ${key.name} in profile "${profile}" (${store.path})`);
}
