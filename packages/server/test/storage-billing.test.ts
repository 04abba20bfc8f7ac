import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

const increment = (clusterId: string, day: string, requests: number) => ({
  clusterId,
  day,
  requests,
  functionInvocations: 0,
  webhookDeliveries: 1,
});

/** The storage contract of billing: usage, charges, credits and Stripe events, on every engine. */
describe.each(availableEngines())('billing storage on %s', (engine) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let userId: string;
  let clusterId: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-billing-storage-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    storage = await openStorage({
      dataDir,
      databaseUrl: database?.url,
      databasePoolSize: 5,
      sqliteSynchronous: 'NORMAL',
    });
    ({ userId, clusterId } = await createAccountWithKey(storage, {
      email: 'billed@example.com',
      name: 'Billed',
      password: 'long enough pw',
      plan: 'payg',
    }));
    cleanup = async () => {
      await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup());

  it('keeps every plan change, and applies a subscription event once, for the current subscription only', async () => {
    const subscriber = await createAccountWithKey(storage, {
      email: 'subscriber@example.com',
      name: 'Subscriber',
      password: 'long enough pw',
    });
    const user = subscriber.userId;
    await storage.billing.setStripeCustomer(user, 'cus_store');
    const event = (id: string) => ({ id, type: 'test', receivedAt: '2026-03-01T00:00:00.000Z' });
    // Later than the account's creation, now.
    const at = new Date(Date.now() + 60_000).toISOString();
    const endedAt = new Date(Date.now() + 120_000).toISOString();
    const subscribe = {
      kind: 'subscribed',
      userId: user,
      plan: 'team',
      subscriptionId: 'sub_1',
      at,
    } as const;
    expect(await storage.billing.applySubscriptionEvent(event('evt_s1'), subscribe)).toEqual({
      userId: user,
      plan: 'team',
      status: 'active',
    });
    expect(await storage.billing.applySubscriptionEvent(event('evt_s1'), subscribe)).toBe('replayed');
    expect(await storage.billing.stripeEventSeen('evt_s1')).toBe(true);
    expect(await storage.billing.stripeSubscription(user)).toBe('sub_1');
    const payment = (kind: 'payment_failed' | 'paid', subscriptionId: string, created: number) =>
      ({ kind, customerId: 'cus_store', subscriptionId, created }) as const;
    const failed = (subscriptionId: string, created = 100) =>
      payment('payment_failed', subscriptionId, created);
    expect(await storage.billing.applySubscriptionEvent(event('evt_s2'), failed('sub_0'))).toBe('ignored');
    expect(await storage.billing.applySubscriptionEvent(event('evt_s3'), failed('sub_1'))).toMatchObject({
      status: 'past_due',
    });
    // Stripe delivers out of order: a payment older than the failure applied changes nothing; one of the same
    // second ends it, and a failure of that second, delivered after it, does not undo it.
    const apply = (id: string, change: ReturnType<typeof payment>) =>
      storage.billing.applySubscriptionEvent(event(id), change);
    expect(await apply('evt_p1', payment('paid', 'sub_1', 99))).toBe('ignored');
    expect(await apply('evt_p2', payment('paid', 'sub_1', 100))).toMatchObject({ status: 'active' });
    expect(await apply('evt_p3', failed('sub_1', 100))).toBe('ignored');
    expect(await apply('evt_p4', failed('sub_1', 101))).toMatchObject({ status: 'past_due' });
    const ended = {
      kind: 'ended',
      customerId: 'cus_store',
      subscriptionId: 'sub_1',
      at: endedAt,
    } as const;
    expect(await storage.billing.applySubscriptionEvent(event('evt_s4'), ended)).toEqual({
      userId: user,
      plan: 'free',
      status: 'active',
    });
    expect(await storage.billing.stripeSubscription(user)).toBeNull();
    const changes = await storage.billing.planChanges(user);
    expect(changes.map((change) => change.plan)).toEqual(['free', 'team', 'free']);
    expect(changes.slice(1).map((change) => change.changedAt)).toEqual([at, endedAt]);
  });

  it('adds counters up and lets the last reading of a day stand', async () => {
    await storage.billing.addUsage([
      increment(clusterId, '2026-01-01', 3),
      increment(clusterId, '2026-01-02', 1),
    ]);
    await storage.billing.addUsage([increment(clusterId, '2026-01-01', 4)]);
    await storage.billing.recordReadings([{ clusterId, day: '2026-01-01', documents: 5, storageBytes: 50 }]);
    await storage.billing.recordReadings([{ clusterId, day: '2026-01-01', documents: 6, storageBytes: 60 }]);
    expect(await storage.billing.usage(userId, '2026-01-01', '2026-01-31')).toEqual([
      {
        day: '2026-01-01',
        clusterId,
        requests: 7,
        documents: 6,
        storageBytes: 60,
        functionInvocations: 0,
        webhookDeliveries: 2,
      },
      {
        day: '2026-01-02',
        clusterId,
        requests: 1,
        documents: 0,
        storageBytes: 0,
        functionInvocations: 0,
        webhookDeliveries: 1,
      },
    ]);
    expect(await storage.billing.usage(userId, '2026-01-02', '2026-01-02')).toHaveLength(1);
    expect(await storage.billing.usage('usr_nobody', '2026-01-01', '2026-01-31')).toEqual([]);
  });

  it('charges only what a month costs beyond its earlier charges, and suspends at zero', async () => {
    await storage.billing.grantCredits({ userId }, 10);
    expect(await storage.billing.charge(userId, '2026-01', 4)).toEqual({
      charged: 4,
      credits: 6,
      status: 'active',
    });
    expect(await storage.billing.charge(userId, '2026-01', 4)).toEqual({
      charged: 0,
      credits: 6,
      status: 'active',
    });
    // A smaller figure takes nothing back.
    expect(await storage.billing.charge(userId, '2026-01', 2)).toEqual({
      charged: 0,
      credits: 6,
      status: 'active',
    });
    expect(await storage.billing.charge(userId, '2026-02', 7)).toEqual({
      charged: 7,
      credits: -1,
      status: 'suspended',
    });
    expect(await storage.billing.grantCredits({ email: 'billed@example.com' }, 5)).toEqual({
      userId,
      credits: 4,
    });
    expect((await storage.accounts.billing(userId))?.status).toBe('active');
  });

  it('applies a Stripe event once, and an event with its grant in one transaction', async () => {
    const event = {
      id: 'evt_once',
      type: 'checkout.session.completed',
      receivedAt: new Date().toISOString(),
    };
    const before = (await storage.accounts.billing(userId))!.credits;
    expect(await storage.billing.grantCredits({ userId }, 100, event)).toEqual({
      userId,
      credits: before + 100,
    });
    expect(await storage.billing.grantCredits({ userId }, 100, event)).toBe('replayed');
    expect(await storage.billing.recordStripeEvent(event)).toBe(false);
    expect(await storage.billing.recordStripeEvent({ ...event, id: 'evt_other' })).toBe(true);
    expect((await storage.accounts.billing(userId))!.credits).toBe(before + 100);
  });

  it('keeps the Stripe customer of the account', async () => {
    expect(await storage.billing.stripeCustomer(userId)).toBeNull();
    await storage.billing.setStripeCustomer(userId, 'cus_test');
    expect(await storage.billing.stripeCustomer(userId)).toBe('cus_test');
  });
});
