import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes, usable by any Standard Webhooks library. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Encrypts signing secrets at rest with AES-256-GCM. Secrets must be read back to sign deliveries, so they
 * cannot be hashed; the key lives outside the database (configuration or the data directory), so a dump of
 * the database holds only ciphertext. Each ciphertext is bound to its subscription (`context`, as additional
 * authenticated data), so one cannot be moved to another row.
 */
export class SecretBox {
  /** A value derived from the key that identifies it without revealing it; stored in the database. */
  readonly checkValue: string;
  private readonly key: Buffer;

  /** `material`: the configured key (at least 32 characters) or a generated one; the AES key is derived with HKDF. */
  constructor(material: string) {
    if (material.length < 32) throw new Error('The encryption key must have at least 32 characters');
    const root = Buffer.from(hkdfSync('sha256', material, 'dataplatform', 'webhook-secrets', 64));
    this.key = root.subarray(0, 32);
    this.checkValue = `${VERSION}:${createHmac('sha256', root.subarray(32)).update('key-check').digest('base64url')}`;
  }

  /** `v1.` followed by base64 of IV, tag and ciphertext. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** The plaintext of `seal(plaintext, context)`; throws when the key, the context or the text differ. */
  open(sealed: string, context: string): string {
    const [version, payload] = sealed.split('.', 2);
    if (version !== VERSION || !payload) throw new Error('Unknown secret encoding');
    const bytes = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** The encrypted secrets of a subscription, as stored. */
export interface SealedSecrets {
  /** The subscription id: the context its secrets were sealed with. */
  id: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

/** The secrets a delivery is signed with at `now`: the current one, and the previous one while it is valid. */
export function signingSecrets(box: SecretBox, sealed: SealedSecrets, now: number): string[] {
  const secrets = [box.open(sealed.secret, sealed.id)];
  const { previousSecret, previousSecretExpiresAt } = sealed;
  if (previousSecret && previousSecretExpiresAt && Date.parse(previousSecretExpiresAt) > now)
    secrets.push(box.open(previousSecret, sealed.id));
  return secrets;
}
