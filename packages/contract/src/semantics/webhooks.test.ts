import { describe, expect, it } from 'vitest';
import { deliveryNotFound, streamedResendRefused, webhookNotFound } from './webhooks.js';

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
