import { describe, expect, it } from 'vitest';
import {
  deliveryNotFound,
  streamedResendRefused,
  subscribesTo,
  subscriptionWants,
  webhookNotFound,
} from './webhooks.js';

describe('webhook refusals', () => {
  it('name the subscription and the delivery they are about', () => {
    expect(webhookNotFound('wh_1')).toEqual({
      code: 'not_found',
      message: 'Webhook "wh_1" not found',
      details: { webhookId: 'wh_1' },
    });
    expect(deliveryNotFound('wh_1', 'dl_1')).toMatchObject({
      code: 'not_found',
      details: { webhookId: 'wh_1', deliveryId: 'dl_1' },
    });
    const streamed = streamedResendRefused('wh_1', 'dl_1');
    expect(streamed.code).toBe('validation_error');
    expect(streamed.message).toContain('Last-Event-ID');
    expect(streamed.details).toEqual({ webhookId: 'wh_1', deliveryId: 'dl_1', status: 'streamed' });
  });
});

describe('which events a subscription wants', () => {
  it('takes the kinds it names, or every kind with *', () => {
    expect(subscribesTo(['document.created'], 'document.created')).toBe(true);
    expect(subscribesTo(['document.created'], 'document.deleted')).toBe(false);
    expect(subscribesTo(['*'], 'document.deleted')).toBe(true);
    expect(subscribesTo([], 'document.created')).toBe(false);
  });

  it('covers its one collection, or every collection when it names none', () => {
    const orders = { events: ['document.created'], collection: 'orders' };
    expect(subscriptionWants(orders, 'document.created', 'orders')).toBe(true);
    expect(subscriptionWants(orders, 'document.created', 'users')).toBe(false);
    expect(subscriptionWants(orders, 'document.updated', 'orders')).toBe(false);
    const everything = { events: ['*'], collection: null };
    expect(subscriptionWants(everything, 'document.updated', 'users')).toBe(true);
  });
});
