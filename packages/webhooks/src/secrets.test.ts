import { describe, expect, it } from 'vitest';
import { secretList, standardWebhooksKey } from './secrets.js';

describe('secretList', () => {
  it('takes one secret or several', () => {
    expect(secretList('whsec_a')).toEqual(['whsec_a']);
    expect(secretList(['whsec_a', 'whsec_b'])).toEqual(['whsec_a', 'whsec_b']);
  });

  it.each([[''], [[]], [['whsec_a', '']], [[42]]])('throws a TypeError for %j', (secret) => {
    expect(() => secretList(secret as never)).toThrow(TypeError);
  });
});

describe('standardWebhooksKey', () => {
  it('decodes the base64 after whsec_, or without the prefix', () => {
    expect(standardWebhooksKey('whsec_AQID')).toEqual(Uint8Array.from([1, 2, 3]));
    expect(standardWebhooksKey('AQID')).toEqual(Uint8Array.from([1, 2, 3]));
  });

  it('has none for a secret that is not base64, or is empty', () => {
    expect(standardWebhooksKey('correct-horse-battery-staple')).toBeNull();
    expect(standardWebhooksKey('whsec_')).toBeNull();
  });
});
