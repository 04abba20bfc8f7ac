import type { DataPlatform } from '@dataplatform/sdk';
import { Command } from 'commander';
import { attempt, UsageError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { promptHidden, readSecretLine } from '../../input/password.js';
import type { Credential } from '../../settings/resolve.js';
import { type Run, withExamples } from '../command.js';
import { targetProfile } from '../config/target.js';

/** Options of `dp login`; `--token` and `--api-key` are the global flags, read from `f.flags`. */
export interface LoginOptions {
  email?: string | undefined;
  passwordStdin: boolean;
}

/** `dp login`. */
export function newLoginCommand(f: Factory, run: Run<LoginOptions> = runLogin): Command {
  const command = new Command('login')
    .description(
      'Sign in and save the credential in the profile: --email (password asked, or --password-stdin), or check and save --token / --api-key (for CI)',
    )
    .option('--email <email>', 'sign in with this e-mail; the password is asked for without echo')
    .option('--password-stdin', 'read the password from the first line of standard input', false)
    .action((options: LoginOptions) => run(f, options));
  return withExamples(command, [
    'dp login --email ada@example.com',
    'printf %s "$PASSWORD" | dp login --email ada@example.com --password-stdin',
    'dp login --api-key "$DATAPLATFORM_CI_KEY" --profile ci   # checked against the server, then saved',
  ]);
}

/**
 * Signs in (or checks the given credential against the server), then saves it in the profile in place of the
 * profile's other credential, so exactly one is in effect. `--json`: `{ profile, credential, user? }`.
 */
export async function runLogin(f: Factory, options: LoginOptions): Promise<void> {
  const given = givenCredential(f, options);
  let credential: Pick<Credential, 'kind' | 'value'>;
  let who: { email: string; name: string } | undefined;
  if (options.email !== undefined) {
    const password = options.passwordStdin
      ? await readSecretLine(f.io, 'password')
      : await promptHidden(f.io, `Password for ${options.email}: `);
    const anonymous = await f.clientWith(null);
    const session = await attempt(
      `sign in as ${options.email}`,
      anonymous.auth.signIn({ email: options.email, password }),
    );
    credential = { kind: 'token', value: session.token };
    who = session.user;
  } else {
    credential = given!;
    who = await check(await f.clientWith(credential), credential);
  }
  const profile = await targetProfile(f);
  const store = await f.store();
  store.set(profile, credential.kind === 'token' ? 'token' : 'apiKey', credential.value);
  store.unset(profile, credential.kind === 'token' ? 'apiKey' : 'token');
  const out = await f.output();
  const kind = credential.kind === 'token' ? 'session token' : 'API key';
  if (out.json) await out.writeJson({ profile, credential: credential.kind, user: who ?? null });
  out.success(
    `${who ? `Logged in as ${who.email}` : 'The API key works'}; the ${kind} is saved in profile "${profile}" (${store.path})`,
  );
}

function givenCredential(f: Factory, options: LoginOptions): Pick<Credential, 'kind' | 'value'> | undefined {
  const { token, apiKey } = f.flags;
  const ways = [options.email !== undefined, token !== undefined, apiKey !== undefined].filter(
    Boolean,
  ).length;
  if (ways > 1) throw new UsageError('give one of --email, --token and --api-key');
  if (ways === 0) {
    throw new UsageError(
      'say how to sign in',
      '`dp login --email <you>` asks for your password; CI passes --token <token> or --api-key <key>',
    );
  }
  if (options.passwordStdin && options.email === undefined)
    throw new UsageError('--password-stdin goes with --email');
  if (token !== undefined) return { kind: 'token', value: token };
  if (apiKey !== undefined) return { kind: 'api-key', value: apiKey };
  return undefined;
}

/**
 * Checks a credential before it is saved: a token by asking who it belongs to, a key by reading its cluster's
 * jobs (a key without data scopes is refused there with 403, which still proves the key exists).
 */
async function check(
  client: DataPlatform,
  credential: Pick<Credential, 'kind' | 'value'>,
): Promise<{ email: string; name: string } | undefined> {
  if (credential.kind === 'token') {
    return (await attempt('check the session token', client.auth.me())).user;
  }
  try {
    await attempt('check the API key', client.jobs.list({ limit: 1 }));
  } catch (error) {
    if ((error as { cause?: { status?: number } }).cause?.status !== 403) throw error;
  }
  return undefined;
}
