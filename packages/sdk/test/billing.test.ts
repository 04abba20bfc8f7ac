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

/** A client signed in as a fresh user of the mocks. */
async function signedIn(): Promise<DataPlatform> {
  const client = new DataPlatform({ baseUrl, maxRetries: 0 });
  await client.auth.signUp(
    {
      email: `b-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'a long passphrase',
      name: 'B',
    },
    { storeToken: true },
  );
  return client;
}

describe('client.billing', () => {
  it('shows the account and changes the plan, with the tier that follows', async () => {
    const client = await signedIn();
    expect(await client.billing.get()).toMatchObject({ plan: 'free', trialActive: true, tier: 'starter' });
    expect(await client.billing.setPlan('team')).toMatchObject({ plan: 'team', tier: 'pro' });
  });

  it('lists usage and walks the invoices, each also by id', async () => {
    const client = await signedIn();
    expect(await client.billing.usage()).toEqual({ data: [] });
    await expect(client.billing.usage({ from: '2026-02-02', to: '2026-02-01' })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    const invoices = [];
    for await (const invoice of client.billing.invoices.list()) invoices.push(invoice);
    expect(invoices).toHaveLength(1);
    expect(await client.billing.invoices.get(invoices[0]!._id)).toEqual(invoices[0]);
  });

  it('opens Checkout and the portal (the mocks act as Stripe in test mode)', async () => {
    const client = await signedIn();
    expect((await client.billing.checkout({ credits: 500 })).url).toMatch(
      /^https:\/\/checkout\.stripe\.com\//,
    );
    expect((await client.billing.checkout({ plan: 'team' })).url).toMatch(/^https:\/\//);
    expect((await client.billing.portal()).url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    await expect(client.billing.checkout({ credits: 1 })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('answers NotFoundError for an invoice that is not yours', async () => {
    const client = await signedIn();
    await expect(client.billing.invoices.get('inv_nope')).rejects.toBeInstanceOf(NotFoundError);
  });
});
