import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { requireSavedProfile } from './use.js';

/** Options of `dp profiles remove`. */
export interface ProfilesRemoveOptions {
  name: string;
}

/** `dp profiles remove <name>`. */
export function newProfilesRemoveCommand(
  f: Factory,
  run: Run<ProfilesRemoveOptions> = runProfilesRemove,
): Command {
  const command = new Command('remove')
    .description('Delete a saved profile and the credentials in it')
    .argument('<name>', 'a saved profile')
    .action((name: string) => run(f, { name }));
  return withExamples(command, ['dp profiles remove staging']);
}

/** Deletes it (`--json`: `{ name, removed: true }`); the "default" profile is used after removing the current one. */
export async function runProfilesRemove(f: Factory, { name }: ProfilesRemoveOptions): Promise<void> {
  const store = await f.store();
  requireSavedProfile(name, store.read().profiles);
  store.remove(name);
  const out = await f.output();
  if (out.json) await out.writeJson({ name, removed: true });
  out.success(`Removed profile "${name}"`);
}
