import type { DataPlatform } from '@dataplatform/sdk';
import { Command } from 'commander';
import { attempt, UsageError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { promptHidden, readSecretLine } from '../../input/password.js';
import type { Credential } from '../../settings/resolve.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { targetProfile } from '../config/target.js';

/** Options of `dp login`; `--token` and `--api-key` are the global flags, read from `f.flags`. */
export interface LoginOptions {
  email?: string | undefined;
  passwordStdin: boolean;
  /** `--no-browser`: the device flow (a URL and a short code to confirm on any device) instead of a loopback. */
  browser: boolean;
  /** `--no-open`: print the sign-in address instead of opening a browser. */
  open: boolean;
  /** How long to wait for the browser or the device confirmation, in seconds. */
  timeout: number;
}

/** Five minutes: long enough to sign up on the page, short enough that a forgotten login ends. */
const DEFAULT_TIMEOUT_SECONDS = 300;

/** `dp login`. */
export function newLoginCommand(f: Factory, run: Run<LoginOptions> = runLogin): Command {
  const command = new Command('login')
    .description(
      'Sign in and save the credential in the profile: in the browser (the default), --no-browser (a short code to confirm on any device), --email (password asked, or --password-stdin), or check and save --token / --api-key (for CI)',
    )
    .option('--email <email>', 'sign in with this e-mail; the password is asked for without echo')
    .option('--password-stdin', 'read the password from the first line of standard input', false)
    .option('--no-browser', 'for SSH sessions: print an address and a short code to confirm on any device')
    .option('--no-open', 'print the sign-in address instead of opening a browser (BROWSER names the browser)')
    .option(
      '--timeout <seconds>',
      'give up waiting for the browser or the confirmation after this long',
      wholeNumber(1, 3600),
      DEFAULT_TIMEOUT_SECONDS,
    )
    .action((options: LoginOptions) => run(f, options));
  return withExamples(command, [
    'dp login                     # opens the sign-in page in your browser',
    'dp login --no-browser        # on a machine without one: confirm a short code elsewhere',
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
  } else if (given === undefined) {
    const session = options.browser
      ? await signInInBrowser(f, options)
      : await (await import('./device.js')).signInWithDevice(await f.clientWith(null), f.io, options.timeout);
    credential = { kind: 'token', value: session.token };
    who = (await attempt('read who signed in', (await f.clientWith(credential)).auth.me())).user;
  } else {
    credential = given;
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
  if (ways > 0 && (!options.browser || !options.open)) {
    throw new UsageError(
      '--no-browser and --no-open go with a sign-in in the browser, not with a credential',
    );
  }
  if (options.passwordStdin && options.email === undefined)
    throw new UsageError('--password-stdin goes with --email');
  if (token !== undefined) return { kind: 'token', value: token };
  if (apiKey !== undefined) return { kind: 'api-key', value: apiKey };
  return undefined;
}

/** Signs in on the server's page in a browser, which posts the session back to a loopback listener. */
async function signInInBrowser(f: Factory, options: LoginOptions) {
  const { startLoopbackReceiver } = await import('./loopback.js');
  const receiver = await startLoopbackReceiver(options.timeout * 1000);
  try {
    const anonymous = await f.clientWith(null);
    const url = anonymous.auth.loginPageUrl({ redirectTo: receiver.redirectTo, state: receiver.state });
    const { openBrowser } = await import('./open-browser.js');
    const opened = options.open && (await openBrowser(url, f.io.env));
    // The address goes to standard error whatever happens: a browser may open on another screen, or not at all.
    f.io.stderr.write(
      opened
        ? `Opened the sign-in page in your browser. If it did not appear, open:\n  ${url}\n`
        : `Open this address in a browser on this machine to sign in:\n  ${url}\n`,
    );
    f.io.stderr.write(`Waiting for the sign-in (up to ${options.timeout} s; Ctrl-C to stop)…\n`);
    return await receiver.session;
  } finally {
    receiver.close();
  }
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
