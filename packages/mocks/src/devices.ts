import type { MockClient } from './accounts.js';
import { ApiError } from './answers.js';
import { randomToken } from './ids.js';

/** What the device model needs of the accounts: starting a session for a user. */
export interface DeviceAccounts {
  startSessionFor(userId: string, client: MockClient, details: Record<string, unknown>): unknown;
}

/** The server's settings of device sign-in, and where its confirmation page is. */
export interface DeviceSettings {
  baseUrl: string;
  codeTtlSeconds: number;
  pollIntervalSeconds: number;
}

interface MockDeviceRequest {
  userCode: string;
  status: 'pending' | 'approved' | 'denied';
  userId: string | null;
  interval: number;
  lastPolledAt: number | null;
  expiresAt: number;
}

const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

function normalize(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/**
 * Device sign-in (RFC 8628) as the server does it: pending until decided, `slow_down` (interval + 5 s) when polled
 * sooner than the interval, denial and expiry reported once, and the session handed out once.
 */
export class DeviceModel {
  readonly #requests = new Map<string, MockDeviceRequest>();
  #settings: DeviceSettings = { baseUrl: '', codeTtlSeconds: 600, pollIntervalSeconds: 5 };

  constructor(private readonly accounts: DeviceAccounts) {}

  configure(settings: Partial<DeviceSettings>): void {
    this.#settings = { ...this.#settings, ...settings };
  }

  clear(): void {
    this.#requests.clear();
  }

  start() {
    const deviceCode = randomToken(43);
    const userCode = Array.from(
      globalThis.crypto.getRandomValues(new Uint8Array(8)),
      (b) => ALPHABET[b % 20],
    ).join('');
    const { baseUrl, codeTtlSeconds, pollIntervalSeconds } = this.#settings;
    this.#requests.set(deviceCode, {
      userCode,
      status: 'pending',
      userId: null,
      interval: pollIntervalSeconds,
      lastPolledAt: null,
      expiresAt: Date.now() + codeTtlSeconds * 1000,
    });
    const shown = `${userCode.slice(0, 4)}-${userCode.slice(4)}`;
    return {
      deviceCode,
      userCode: shown,
      verificationUri: `${baseUrl}/device`,
      verificationUriComplete: `${baseUrl}/device?code=${shown}`,
      expiresIn: codeTtlSeconds,
      interval: pollIntervalSeconds,
    };
  }

  decide(userId: string, userCode: string, status: 'approved' | 'denied') {
    const code = normalize(userCode);
    const request = [...this.#requests.values()].find(
      (r) => r.userCode === code && r.status === 'pending' && r.expiresAt > Date.now(),
    );
    if (!request) throw new ApiError('not_found', 'No pending sign-in request has this code');
    request.status = status;
    request.userId = status === 'approved' ? userId : null;
    return { userCode: `${code.slice(0, 4)}-${code.slice(4)}`, status };
  }

  poll(deviceCode: string, client: MockClient) {
    const request = this.#requests.get(deviceCode);
    if (!request)
      throw new ApiError('invalid_grant', 'No sign-in request has this device code, or it was used');
    const now = Date.now();
    if (request.expiresAt <= now) {
      this.#requests.delete(deviceCode);
      throw new ApiError('expired_token', 'The device code expired; start the sign-in again');
    }
    const tooSoon = request.lastPolledAt !== null && now - request.lastPolledAt < request.interval * 1000;
    request.lastPolledAt = now;
    if (tooSoon) {
      request.interval += 5;
      throw new ApiError('slow_down', `Polled too soon; wait ${request.interval} seconds between polls`, {
        interval: request.interval,
      });
    }
    if (request.status === 'pending')
      throw new ApiError('authorization_pending', 'The sign-in has not been confirmed yet');
    this.#requests.delete(deviceCode);
    if (request.status === 'denied') throw new ApiError('access_denied', 'The sign-in request was denied');
    return this.accounts.startSessionFor(request.userId!, client, { method: 'device' });
  }
}
