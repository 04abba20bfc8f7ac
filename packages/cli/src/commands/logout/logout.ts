import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { dataCredential } from '../../settings/resolve.js';
import { type Run, withExamples } from '../command.js';
import { targetProfile } from '../config/target.js';

/** `dp logout` has no options of its own. */
export type LogoutOptions = Record<string, never>;

/** `dp logout`. */
export function newLogoutCommand(f: Factory, run: Run<LogoutOptions> = runLogout): Command {
  const command = new Command('logout')
    .description('End the session on the server, then forget the credential saved in the profile')
    .action(() => run(f, {}));
  return withExamples(command, ['dp logout', 'dp logout --profile staging']);
}

/**
 * A session token in effect is ended on the server first (a token the server no longer accepts counts as ended);
 * then the profile's saved token and API key are forgotten. `--json`: `{ profile, endedSession, forgot }`.
 */
export async function runLogout(f: Factory): Promise<void> {
  const settings = await f.settings();
  const credential = dataCredential(settings);
  let endedSession = false;
  if (credential?.kind === 'token') {
    const client = await f.clientWith(credential);
    try {
      await attempt('end the session', client.auth.logout());
      endedSession = true;
    } catch (error) {
      const status = (error as { cause?: { status?: number } }).cause?.status;
      if (status !== 401) throw error;
    }
  }
  const profile = await targetProfile(f);
  const store = await f.store();
  const forgot = (['token', 'apiKey'] as const).filter((field) => store.unset(profile, field));
  const out = await f.output();
  if (out.json) await out.writeJson({ profile, endedSession, forgot });
  const names = forgot.map((field) => (field === 'token' ? 'session token' : 'API key'));
  out.success(
    `${endedSession ? 'Ended the session; ' : ''}${names.length ? `forgot the ${names.join(' and ')} of profile "${profile}"` : `profile "${profile}" held no credential`}`,
  );
  if (credential && !credential.origin.startsWith('profile ')) {
    out.note(`The credential from ${credential.origin} is still set there; unset it to stop using it.`);
  }
}
