import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { AuthSession, DeviceAuthorization, DeviceDecision } from '@dataplatform/contract';
import type { AuthLimiter } from '../auth/auth-limits.js';
import type { ClientInfo } from '../auth/client.js';
import { ApiError } from '../http/errors.js';
import type { Storage } from '../storage/types.js';
import type { AccountService } from './accounts.js';

/**
 * Consonants without look-alikes (RFC 8628 §6.1): no vowels, so a code spells no word, and no 0/O or 1/I. Eight of
 * them are 20^8 ≈ 2.6·10^10 codes; with codes living minutes and sign-ins limited per address, guessing a pending
 * one is hopeless.
 */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
/** RFC 8628 §3.5: each `slow_down` adds 5 seconds to the interval. */
const SLOW_DOWN_STEP = 5;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** `wdjb-mjht`, `WDJBMJHT`, ` WDJB MJHT ` → `WDJBMJHT`; null when it cannot be a code. */
export function normalizeUserCode(value: string): string | null {
  const code = value.toUpperCase().replace(/[\s-]/g, '');
  return code.length === USER_CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/** `WDJBMJHT` → `WDJB-MJHT`, as people read it. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

function newUserCode(): string {
  return Array.from({ length: USER_CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/**
 * Device sign-in (RFC 8628) for programs without a browser: the program gets a secret device code and shows a
 * short user code; a signed-in person confirms that code on `/device`; the program's poll then gets a session of
 * that person, once. Both codes are stored as SHA-256 hashes, so the table hands nothing usable to a reader.
 */
export class DeviceSignIn {
  constructor(
    private readonly storage: Storage,
    private readonly accounts: AccountService,
    private readonly limiter: AuthLimiter,
    private readonly settings: { codeTtlSeconds: number; pollIntervalSeconds: number },
    private readonly publicUrl: () => string,
  ) {}

  async start(client: ClientInfo): Promise<DeviceAuthorization> {
    await this.limiter.consume('signin', client.ip);
    const deviceCode = randomBytes(32).toString('base64url');
    const now = Date.now();
    const { codeTtlSeconds, pollIntervalSeconds } = this.settings;
    // A clash with a live user code is as likely as guessing one; retrying on the unique index settles it.
    for (let attempt = 0; ; attempt++) {
      const userCode = newUserCode();
      try {
        await this.storage.deviceAuthorizations.create({
          deviceCodeHash: sha256(deviceCode),
          userCodeHash: sha256(userCode),
          status: 'pending',
          userId: null,
          interval: pollIntervalSeconds,
          lastPolledAt: null,
          expiresAt: new Date(now + codeTtlSeconds * 1000).toISOString(),
          createdAt: new Date(now).toISOString(),
        });
      } catch (error) {
        if (attempt < 3) continue;
        throw error;
      }
      const verificationUri = `${this.publicUrl()}/device`;
      return {
        deviceCode,
        userCode: formatUserCode(userCode),
        verificationUri,
        verificationUriComplete: `${verificationUri}?code=${formatUserCode(userCode)}`,
        expiresIn: codeTtlSeconds,
        interval: pollIntervalSeconds,
      };
    }
  }

  /** The signed-in person approves or denies the pending request with this user code. */
  async decide(userId: string, userCode: string, status: 'approved' | 'denied'): Promise<DeviceDecision> {
    const code = normalizeUserCode(userCode);
    const decided =
      code !== null &&
      (await this.storage.deviceAuthorizations.decide(
        sha256(code),
        status === 'approved' ? { status, userId } : { status },
        new Date().toISOString(),
      ));
    if (!decided) throw new ApiError('not_found', 'No pending sign-in request has this code');
    return { userCode: formatUserCode(code), status };
  }

  /** One poll of the program: the RFC 8628 error while undecided, refused or expired; the session once. */
  async poll(deviceCode: string, client: ClientInfo): Promise<AuthSession> {
    const store = this.storage.deviceAuthorizations;
    const hash = sha256(deviceCode);
    const record = await store.find(hash);
    if (!record)
      throw new ApiError('invalid_grant', 'No sign-in request has this device code, or it was used');
    const now = new Date();
    if (record.expiresAt <= now.toISOString()) {
      await store.delete(hash);
      throw new ApiError('expired_token', 'The device code expired; start the sign-in again');
    }
    const tooSoon =
      record.lastPolledAt !== null &&
      now.getTime() - Date.parse(record.lastPolledAt) < record.interval * 1000;
    const interval = tooSoon ? record.interval + SLOW_DOWN_STEP : record.interval;
    const recorded = await store.recordPoll(hash, record.lastPolledAt, now.toISOString(), interval);
    if (tooSoon || !recorded) {
      throw new ApiError('slow_down', `Polled too soon; wait ${interval} seconds between polls`, {
        interval,
      });
    }
    if (record.status === 'pending') {
      throw new ApiError('authorization_pending', 'The sign-in has not been confirmed yet');
    }
    if (record.status === 'denied') {
      await store.delete(hash);
      throw new ApiError('access_denied', 'The sign-in request was denied');
    }
    const userId = await store.takeApproved(hash);
    const user = userId ? await this.storage.accounts.findUser(userId) : null;
    if (!user) throw new ApiError('invalid_grant', 'No sign-in request has this device code, or it was used');
    return this.accounts.startSession(user, client, { method: 'device' });
  }
}
