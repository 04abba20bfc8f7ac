import type { DataPlatform, Fetch } from '@dataplatform/sdk';
import { CliError } from './errors/cli-error.js';
import { ExitCode } from './errors/exit-codes.js';
import type { FailureContext } from './errors/failure.js';
import { CREDENTIAL_HOWTO } from './errors/hints.js';
import type { IOStreams } from './iostreams.js';
import { createOutput, type Output } from './output/printer.js';
import { type Spinner, startSpinner } from './output/spinner.js';
import { checkBaseUrl } from './settings/keys.js';
import {
  type Credential,
  dataCredential,
  requireKnownProfile,
  resolveSettings,
  type Settings,
} from './settings/resolve.js';
import { openProfileStore, type ProfileStore } from './settings/store.js';
import { VERSION } from './version.js';

/** The global options of every command. */
export interface GlobalFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  token?: string | undefined;
  /** The cluster data commands act on (`X-Cluster-Id`); a session token's default cluster when unset. */
  cluster?: string | undefined;
  json: boolean;
  color: boolean;
}

/**
 * What commands get their dependencies from. Everything is made on first use, so `dp --help` loads neither
 * conf, chalk nor the SDK, and a test can replace any part.
 */
export interface Factory {
  readonly io: IOStreams;
  /** The global flags of this invocation; set once the command line is parsed. */
  flags: GlobalFlags;
  /** The profile store. */
  store(): Promise<ProfileStore>;
  /** The settings of this invocation, each with its origin. */
  settings(): Promise<Settings>;
  /** An SDK client for data routes; fails with exit status 3 when no credential is set. */
  client(options?: ClientOverrides): Promise<DataPlatform>;
  /** An SDK client for the server of this invocation with exactly `credential` (none: for signing in). */
  clientWith(
    credential: Pick<Credential, 'kind' | 'value'> | null,
    options?: ClientOverrides,
  ): Promise<DataPlatform>;
  /** How to print. */
  output(): Promise<Output>;
  /** A spinner on standard error for slow work (silent unless it is a terminal). */
  spinner(text: string): Promise<Spinner>;
  /** What the error report needs to know about the settings used, if they were resolved. */
  failureContext(): FailureContext;
}

/** What a command may change in its SDK client. */
export interface ClientOverrides {
  /** Send with this fetch instead of the SDK's own transport (uploads use one that waits for the socket). */
  fetch?: Fetch;
}

/** The factory of one invocation over `io`. */
export function createFactory(io: IOStreams): Factory {
  let store: Promise<ProfileStore> | undefined;
  let settings: Promise<Settings> | undefined;
  let output: Promise<Output> | undefined;
  let resolved: Settings | undefined;
  let credential: Credential | undefined;

  const factory: Factory = {
    io,
    flags: { json: false, color: true },
    store() {
      store ??= openProfileStore({ dir: io.env.DATAPLATFORM_CONFIG_DIR?.trim() || undefined });
      return store;
    },
    settings() {
      settings ??= factory.store().then((s) => {
        resolved = resolveSettings(factory.flags, io.env, s.read());
        return resolved;
      });
      return settings;
    },
    async client(options) {
      const current = await factory.settings();
      requireKnownProfile(current);
      credential = dataCredential(current);
      if (!credential) {
        throw new CliError('no credential is set', { exitCode: ExitCode.auth, hint: CREDENTIAL_HOWTO });
      }
      return factory.clientWith(credential, options);
    },
    async clientWith(chosen, options = {}) {
      const current = await factory.settings();
      const { DataPlatform } = await import('@dataplatform/sdk');
      return new DataPlatform({
        baseUrl: checkBaseUrl(current.baseUrl.value, current.baseUrl.origin),
        // An empty string, not undefined: the SDK would otherwise read the other credential from the
        // environment, and a command sends exactly one.
        apiKey: chosen?.kind === 'api-key' ? chosen.value : '',
        token: chosen?.kind === 'token' ? chosen.value : '',
        defaultHeaders: {
          'user-agent': `dataplatform-cli/${VERSION} node/${process.versions.node}`,
          ...(factory.flags.cluster ? { 'x-cluster-id': factory.flags.cluster } : {}),
        },
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    },
    output() {
      output ??= createOutput(io, factory.flags);
      return output;
    },
    spinner(text) {
      return startSpinner(io, text, factory.flags.json);
    },
    failureContext() {
      if (!resolved) return {};
      return {
        baseUrl: resolved.baseUrl.value,
        baseUrlIsDefault: resolved.baseUrl.layer === 'default',
        credentialOrigin: credential?.origin,
        credentialKind: credential?.kind,
      };
    },
  };
  return factory;
}
