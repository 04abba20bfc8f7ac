import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { maskSecret, settingKeys } from '../../settings/keys.js';
import { type Run, withExamples } from '../command.js';

/** `dp config list` has no options of its own. */
export type ConfigListOptions = Record<string, never>;

/** `dp config list`. */
export function newConfigListCommand(f: Factory, run: Run<ConfigListOptions> = runConfigList): Command {
  const command = new Command('list')
    .description('Show every setting in effect, secrets masked, and where each comes from')
    .action(() => run(f, {}));
  return withExamples(command, [
    'dp config list',
    'DATAPLATFORM_BASE_URL=http://10.0.0.5:5000 dp config list   # the variable wins over the profile',
    'dp config list --json | jq -r .path',
  ]);
}

/**
 * One row per setting: key, value (secrets masked), origin. `--json`:
 * `{ profile: { name, from }, path, settings: [{ key, value, from }] }` with `value: null` when unset.
 */
export async function runConfigList(f: Factory): Promise<void> {
  const settings = await f.settings();
  const path = (await f.store()).path;
  const entries = settingKeys.map((key) => {
    const sourced = settings[key.field];
    const value = sourced ? (key.secret ? maskSecret(sourced.value) : sourced.value) : null;
    return { key: key.name, value, from: sourced?.origin ?? null };
  });
  const out = await f.output();
  if (out.json) {
    const profile = { name: settings.profile.value, from: settings.profile.origin };
    await out.writeJson({ profile, path, settings: entries });
    return;
  }
  await out.writeTable(
    ['key', 'value', 'from'],
    [
      ['profile', settings.profile.value, settings.profile.origin],
      ...entries.map((e) => [e.key, e.value ?? '', e.from ?? '']),
    ],
  );
  out.note(`Config file: ${path}`);
}
