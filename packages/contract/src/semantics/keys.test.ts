import { describe, expect, it } from 'vitest';
import { checkGrantable, checkKeyChange, checkKeyExpiry, keyExpiresAt, keyStatusAt } from './keys.js';

const NOW = Date.parse('2024-02-29T12:00:00.000Z');

describe('keyExpiresAt', () => {
  it.each([
    [{}, null],
    [{ expiresIn: 'never' as const }, null],
    [{ expiresIn: '30d' as const }, '2024-03-30T12:00:00.000Z'],
    [{ expiresIn: '90d' as const }, '2024-05-29T12:00:00.000Z'],
    // A calendar year: from 29 February the date rolls over to 1 March.
    [{ expiresIn: '1y' as const }, '2025-03-01T12:00:00.000Z'],
    [{ expiresAt: '2030-01-01T00:00:00+02:00' }, '2029-12-31T22:00:00.000Z'],
  ])('reads %j as %s', (input, expected) => {
    expect(keyExpiresAt(input, NOW)).toBe(expected);
  });
});

describe('checkKeyExpiry', () => {
  it('refuses an expiresAt that does not lie in the future, naming the field', () => {
    expect(checkKeyExpiry({ expiresAt: new Date(NOW + 1).toISOString() }, NOW)).toBeNull();
    expect(checkKeyExpiry({ expiresIn: '30d' }, NOW)).toBeNull();
    expect(checkKeyExpiry({ expiresAt: new Date(NOW).toISOString() }, NOW)).toEqual({
      code: 'validation_error',
      message: 'Invalid body field "expiresAt": must lie in the future',
      details: { in: 'body', field: 'expiresAt' },
    });
  });
});

describe('keyStatusAt', () => {
  it('shows expired from the expiry instant on, else the stored status', () => {
    const at = new Date(NOW).toISOString();
    expect(keyStatusAt('paused', at, NOW - 1)).toBe('paused');
    expect(keyStatusAt('paused', at, NOW)).toBe('expired');
    expect(keyStatusAt('active', null, NOW)).toBe('active');
  });
});

describe('checkKeyChange', () => {
  const expired = { status: 'active', expiresAt: new Date(NOW - 1).toISOString() };
  it.each([['paused'], ['resumed'], ['rotated']] as const)('refuses an expired key being %s', (change) => {
    expect(checkKeyChange(expired, change, NOW)).toEqual({
      code: 'conflict',
      message: `An expired key cannot be ${change}; create a new key instead`,
    });
  });

  it('refuses rotating a paused key, and lets it be resumed', () => {
    const paused = { status: 'paused', expiresAt: null };
    expect(checkKeyChange(paused, 'rotated', NOW)?.message).toBe(
      'A paused key cannot be rotated; resume it first',
    );
    expect(checkKeyChange(paused, 'resumed', NOW)).toBeNull();
  });
});

describe('checkGrantable', () => {
  it('lets an owner give what it holds, an alias counting as its scope both ways', () => {
    expect(checkGrantable(['database:read'], ['data:read'])).toBeNull();
    expect(checkGrantable(['data:write'], ['database:write'])).toBeNull();
  });

  it('names every scope the owner does not hold', () => {
    expect(checkGrantable(['data:read', 'data:write', 'webhooks:manage'], ['data:read'])).toEqual({
      code: 'forbidden',
      message: 'Cannot grant scopes the owner does not hold: data:write, webhooks:manage',
      details: { scopes: ['data:write', 'webhooks:manage'] },
    });
  });
});
