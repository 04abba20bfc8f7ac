import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { signedIn } = useMockedApi();

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
