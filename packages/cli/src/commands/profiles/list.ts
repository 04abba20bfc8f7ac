import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import type { Profile } from '../../settings/profile.js';
import { type Run, withExamples } from '../command.js';

/** `dp profiles list` has no options of its own. */
export type ProfilesListOptions = Record<string, never>;

/** `dp profiles list`. */
export function newProfilesListCommand(f: Factory, run: Run<ProfilesListOptions> = runProfilesList): Command {
  const command = new Command('list').description('List the saved profiles').action(() => run(f, {}));
  return withExamples(command, ['dp profiles list', 'dp profiles list --json | jq -r ".profiles[].name"']);
}

/** The credentials a profile holds, by kind. */
function credentialsOf(profile: Profile): string[] {
  return [profile.apiKey ? 'api-key' : undefined, profile.token ? 'token' : undefined].filter(
    (kind): kind is string => kind !== undefined,
  );
}

/**
 * A table with the profile in use marked `*`. `--json`:
 * `{ current, profiles: [{ name, current, baseUrl, credentials: ["api-key", "token"] }] }`.
 */
export async function runProfilesList(f: Factory): Promise<void> {
  const current = (await f.settings()).profile.value;
  const { profiles } = (await f.store()).read();
  const list = Object.entries(profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, profile]) => ({
      name,
      current: name === current,
      baseUrl: profile.baseUrl ?? null,
      credentials: credentialsOf(profile),
    }));
  const out = await f.output();
  if (out.json) {
    await out.writeJson({ current, profiles: list });
    return;
  }
  if (list.length === 0) {
    out.note('No profiles yet: `dp config set base-url <url>` creates the "default" one');
    return;
  }
  await out.writeTable(
    ['', 'name', 'base url', 'credentials'],
    list.map((p) => [p.current ? '*' : '', p.name, p.baseUrl ?? '', p.credentials.join(', ')]),
  );
}
