import { Command } from 'commander';
import { CliError, UsageError } from '../../errors/cli-error.js';
import { ExitCode } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { isProfileName } from '../../settings/profile.js';
import { type Run, withExamples } from '../command.js';

/** Options of `dp profiles use`. */
export interface ProfilesUseOptions {
  name: string;
}

/** `dp profiles use <name>`. */
export function newProfilesUseCommand(f: Factory, run: Run<ProfilesUseOptions> = runProfilesUse): Command {
  const command = new Command('use')
    .description('Use this profile from now on when --profile and DATAPLATFORM_PROFILE name none')
    .argument('<name>', 'a saved profile')
    .action((name: string) => run(f, { name }));
  return withExamples(command, ['dp profiles use staging']);
}

/** Saves the choice (`--json`: `{ current }`); exit status 4 when no such profile is saved. */
export async function runProfilesUse(f: Factory, { name }: ProfilesUseOptions): Promise<void> {
  requireSavedProfile(name, (await f.store()).read().profiles);
  (await f.store()).use(name);
  const out = await f.output();
  if (out.json) await out.writeJson({ current: name });
  out.success(`Using profile "${name}"`);
}

/** A usage error for a bad name, exit status 4 for a name that is not saved. */
export function requireSavedProfile(name: string, profiles: Record<string, unknown>): void {
  if (!isProfileName(name)) {
    throw new UsageError(`invalid profile name ${JSON.stringify(name)}`, 'use letters, digits, "_" and "-"');
  }
  if (!Object.hasOwn(profiles, name)) {
    throw new CliError(`there is no profile "${name}"`, {
      exitCode: ExitCode.notFound,
      hint: `\`dp profiles list\` shows the profiles; \`dp config set base-url <url> --profile ${name}\` creates it`,
    });
  }
}
