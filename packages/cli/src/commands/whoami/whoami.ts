import { Command } from 'commander';
import { attempt, CliError } from '../../errors/cli-error.js';
import { ExitCode } from '../../errors/exit-codes.js';
import { CREDENTIAL_HOWTO } from '../../errors/hints.js';
import type { Factory } from '../../factory.js';
import { maskSecret } from '../../settings/keys.js';
import { type Credential, dataCredential } from '../../settings/resolve.js';
import { type Run, withExamples } from '../command.js';

/** `dp whoami` has no options of its own. */
export type WhoamiOptions = Record<string, never>;

/** `dp whoami`. */
export function newWhoamiCommand(f: Factory, run: Run<WhoamiOptions> = runWhoami): Command {
  const command = new Command('whoami')
    .description('Show the profile, server and credential that commands use, and where each comes from')
    .action(() => run(f, {}));
  return withExamples(command, [
    'dp whoami',
    'dp whoami --profile ci --json',
    'dp whoami >/dev/null || echo "no credential"',
  ]);
}

const kindNames = { 'api-key': 'API key', token: 'token' } as const;

/** Who a session token belongs to and their plan, from `GET /api/auth/me`. */
async function signedIn(f: Factory, credential: Credential) {
  const client = await f.clientWith(credential);
  return attempt('ask the server who the session token belongs to', client.auth.me());
}

/**
 * `--json`: `{ profile: { name, from }, baseUrl: { value, from }, credential: { kind, value, from } | null }`
 * with the credential's value masked, plus `user` and `plan` when a session token is in effect (asked of the
 * server). Exit status 3 when no credential is set or the server refuses the token.
 */
export async function runWhoami(f: Factory): Promise<void> {
  const settings = await f.settings();
  const credential = dataCredential(settings);
  const out = await f.output();
  const profile = { name: settings.profile.value, from: settings.profile.origin };
  const baseUrl = { value: settings.baseUrl.value, from: settings.baseUrl.origin };
  const shown = credential && {
    kind: credential.kind,
    value: maskSecret(credential.value),
    from: credential.origin,
  };
  const session = credential?.kind === 'token' ? await signedIn(f, credential) : undefined;
  if (out.json) {
    await out.writeJson({
      profile,
      baseUrl,
      credential: shown ?? null,
      ...(session ? { user: session.user, plan: session.billing?.plan ?? null } : {}),
    });
  } else {
    const { bold, dim } = out.style;
    const line = (label: string, value: string, from: string) =>
      `${label.padEnd(12)}${bold(value)} ${dim(`(${from})`)}\n`;
    await out.write(
      line('Profile:', profile.name, profile.from) +
        line('Server:', baseUrl.value, baseUrl.from) +
        (shown ? line('Credential:', `${kindNames[shown.kind]} ${shown.value}`, shown.from) : ''),
    );
    if (session) {
      const { user, billing } = session;
      const trial =
        billing?.trialActive && billing.trialExpiresAt
          ? `, trial until ${billing.trialExpiresAt.slice(0, 10)}`
          : '';
      await out.write(
        `${'User:'.padEnd(12)}${bold(user.email)} ${dim(`(${user.name})`)}\n` +
          `${'Plan:'.padEnd(12)}${bold(billing?.plan ?? 'none')}${trial}\n`,
      );
    }
  }
  if (!credential) {
    throw new CliError('no credential is set', { exitCode: ExitCode.auth, hint: CREDENTIAL_HOWTO });
  }
}
