import type { DataPlatform } from '@dataplatform/sdk';
import type { Factory } from '../factory.js';
import { requireKnownProfile } from '../settings/resolve.js';

/**
 * The SDK client of a command whose routes take a session token only (functions, triggers): the token whenever one
 * is set, even when an API key is set too (the server refuses a key there), else whatever credential there is, so
 * the server's 401 and the hint to `dp login` come as for any command.
 */
export async function sessionClient(f: Factory): Promise<DataPlatform> {
  const settings = await f.settings();
  requireKnownProfile(settings);
  const { token } = settings;
  return token ? f.clientWith({ kind: 'token', value: token.value }) : f.client();
}
