import { describe, expect, it } from 'vitest';
import { generateSigningSecret, SecretBox, signingSecrets } from './secret-box.js';

const KEY = 'k'.repeat(32);

describe('SecretBox', () => {
  it('opens what it sealed, and nothing sealed for another subscription or with another key', () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal('whsec_abc', 'wh_1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed, 'wh_1')).toBe('whsec_abc');
    expect(() => box.open(sealed, 'wh_2')).toThrow();
    expect(() => new SecretBox('x'.repeat(32)).open(sealed, 'wh_1')).toThrow();
    expect(box.seal('whsec_abc', 'wh_1')).not.toBe(sealed);
  });

  it('derives a check value that names the key without revealing it', () => {
    const box = new SecretBox(KEY);
    expect(box.checkValue).toBe(new SecretBox(KEY).checkValue);
    expect(box.checkValue).not.toBe(new SecretBox('y'.repeat(32)).checkValue);
    expect(box.checkValue).not.toContain(KEY);
  });

  it('refuses key material shorter than 32 characters', () => {
    expect(() => new SecretBox('short')).toThrow(/32 characters/);
  });
});

describe('signing secrets', () => {
  it('generates whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateSigningSecret()).not.toBe(secret);
  });

  it('keeps the previous secret while it is valid', () => {
    const box = new SecretBox(KEY);
    const sealed = {
      id: 'wh_1',
      secret: box.seal('new', 'wh_1'),
      previousSecret: box.seal('old', 'wh_1'),
      previousSecretExpiresAt: '2030-01-02T00:00:00.000Z',
    };
    expect(signingSecrets(box, sealed, Date.parse('2030-01-01T23:59:59.999Z'))).toEqual(['new', 'old']);
    expect(signingSecrets(box, sealed, Date.parse('2030-01-02T00:00:00.000Z'))).toEqual(['new']);
    expect(signingSecrets(box, { ...sealed, previousSecret: null }, 0)).toEqual(['new']);
  });
});
