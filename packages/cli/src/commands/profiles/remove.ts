import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { confirm } from '../../input/confirm.js';
import { type Run, withExamples } from '../command.js';
import { requireSavedProfile } from './use.js';

/** Options of `dp profiles remove`. */
export interface ProfilesRemoveOptions {
  name: string;
  /** `--yes`: remove without asking (needed when standard input is not a terminal). */
  yes?: boolean | undefined;
}

/** `dp profiles remove <name>`. */
export function newProfilesRemoveCommand(
  f: Factory,
  run: Run<ProfilesRemoveOptions> = runProfilesRemove,
): Command {
  const command = new Command('remove')
    .description('Delete a saved profile and the credentials in it')
    .argument('<name>', 'a saved profile')
    .option('-y, --yes', 'remove without asking; a script must pass it')
    .action((name: string, options: { yes?: boolean }) => run(f, { name, ...options }));
  return withExamples(command, [
    'dp profiles remove staging        # asks first on a terminal',
    'dp profiles remove staging --yes',
  ]);
}

/**
 * Asks first (or takes --yes), then deletes it (`--json`: `{ name, removed: true }`); the "default" profile is
 * used after removing the current one. An unknown name fails (status 4) before anything is asked.
 */
export async function runProfilesRemove(f: Factory, { name, yes }: ProfilesRemoveOptions): Promise<void> {
  const store = await f.store();
  requireSavedProfile(name, store.read().profiles);
  await confirm(f.io, { yes, action: `remove profile "${name}" and the credentials in it` });
  store.remove(name);
  const out = await f.output();
  if (out.json) await out.writeJson({ name, removed: true });
  out.success(`Removed profile "${name}"`);
}
