import { createDataPlatformMocks } from '@dataplatform/mocks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, DataPlatform, NotFoundError } from '../src/index.js';

const baseUrl = 'http://localhost:5000';
const mocks = createDataPlatformMocks({ baseUrl });
const server = setupServer(...mocks.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mocks.store.reset());
afterAll(() => server.close());

const credential = (id: string) => ({
  id,
  rawId: id,
  type: 'public-key',
  response: { clientDataJSON: 'e30' },
});

describe('client.auth provider and page addresses', () => {
  it('builds the start address of a provider with redirect_to and state', () => {
    const client = new DataPlatform({ baseUrl });
    expect(client.auth.providerSignInUrl('google')).toBe(`${baseUrl}/api/auth/google`);
    const url = new URL(
      client.auth.providerSignInUrl('github', { redirectTo: 'http://127.0.0.1:9000/callback', state: 's 1' }),
    );
    expect(url.pathname).toBe('/api/auth/github');
    expect(url.searchParams.get('redirect_to')).toBe('http://127.0.0.1:9000/callback');
    expect(url.searchParams.get('state')).toBe('s 1');
    expect(client.auth.loginPageUrl({ redirectTo: '/account' })).toBe(
      `${baseUrl}/login?redirect_to=%2Faccount`,
    );
  });
});

describe('client.auth.passkeys', () => {
  it('registers, lists, signs in with and deletes a passkey', async () => {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    const { user } = await client.auth.signUp(
      { email: 'pk@example.com', password: 'a long passphrase', name: 'Pk' },
      { storeToken: true },
    );
    const { flowId, options } = await client.auth.passkeys.registrationOptions();
    expect(options).toHaveProperty('challenge');
    const added = await client.auth.passkeys.register({
      flowId,
      response: credential('cred-1'),
      name: 'Laptop',
    });
    expect(added).toMatchObject({ _id: 'cred-1', name: 'Laptop', lastUsedAt: null });
    expect((await client.auth.passkeys.list()).data).toHaveLength(1);

    // The flow works once.
    await expect(
      client.auth.passkeys.register({ flowId, response: credential('cred-2') }),
    ).rejects.toBeInstanceOf(BadRequestError);

    const anonymous = new DataPlatform({ baseUrl, maxRetries: 0 });
    const signIn = await anonymous.auth.passkeys.authenticationOptions();
    const session = await anonymous.auth.passkeys.authenticate(
      { flowId: signIn.flowId, response: credential('cred-1') },
      { storeToken: true },
    );
    expect(session.user._id).toBe(user._id);
    expect((await anonymous.auth.me()).user._id).toBe(user._id);

    await expect(client.auth.passkeys.delete('cred-1')).resolves.toEqual({ _id: 'cred-1', deleted: true });
    await expect(client.auth.passkeys.delete('cred-1')).rejects.toBeInstanceOf(NotFoundError);
  });
});
