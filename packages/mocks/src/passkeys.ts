import type { MockClient } from './accounts.js';
import { ApiError } from './answers.js';
import { randomToken } from './ids.js';

interface MockPasskey {
  _id: string;
  userId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  transports: string[];
}

/** What the passkey model needs of the accounts: who a user is, and starting a session for one. */
export interface PasskeyAccounts {
  user(userId: string): { _id: string; email: string; name: string };
  startSessionFor(userId: string, client: MockClient, details: Record<string, unknown>): unknown;
}

const CEREMONY_MS = 5 * 60_000;

/**
 * Passkeys as the server keeps them, minus the cryptography: the mocks check the flow (used once, right user,
 * not expired) and the credential id, not signatures, as no client test carries a real authenticator.
 */
export class PasskeyModel {
  readonly #passkeys = new Map<string, MockPasskey>();
  readonly #flows = new Map<string, { purpose: string; userId: string | null; expiresAt: number }>();

  constructor(private readonly accounts: PasskeyAccounts) {}

  clear(): void {
    this.#passkeys.clear();
    this.#flows.clear();
  }

  registrationOptions(userId: string) {
    const user = this.accounts.user(userId);
    const options = {
      challenge: randomToken(32),
      rp: { name: 'dataplatform', id: 'localhost' },
      user: {
        id: btoa(userId).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
        name: user.email,
        displayName: user.name,
      },
      pubKeyCredParams: [
        { alg: -8, type: 'public-key' },
        { alg: -7, type: 'public-key' },
        { alg: -257, type: 'public-key' },
      ],
      timeout: 60_000,
      attestation: 'none',
      excludeCredentials: this.list(userId).data.map((p) => ({
        id: p._id,
        type: 'public-key',
        transports: p.transports,
      })),
      authenticatorSelection: {
        residentKey: 'required',
        userVerification: 'preferred',
        requireResidentKey: true,
      },
    };
    return { flowId: this.#flow('register', userId), options };
  }

  register(
    userId: string,
    body: { flowId: string; response: { id: string; response: { transports?: unknown } }; name?: string },
  ) {
    this.#take('register', body.flowId, userId);
    if (this.#passkeys.has(body.response.id))
      throw new ApiError('conflict', 'This passkey is registered already');
    const transports = Array.isArray(body.response.response.transports)
      ? body.response.response.transports.map(String)
      : [];
    const passkey: MockPasskey = {
      _id: body.response.id,
      userId,
      name: body.name ?? 'Passkey',
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
      deviceType: 'singleDevice',
      backedUp: false,
      transports,
    };
    this.#passkeys.set(passkey._id, passkey);
    const { userId: _owner, ...answer } = passkey;
    return answer;
  }

  authenticationOptions() {
    const options = {
      challenge: randomToken(32),
      timeout: 60_000,
      rpId: 'localhost',
      userVerification: 'preferred',
    };
    return { flowId: this.#flow('authenticate', null), options };
  }

  authenticate(body: { flowId: string; response: { id: string } }, client: MockClient) {
    this.#take('authenticate', body.flowId, null);
    const passkey = this.#passkeys.get(body.response.id);
    if (!passkey) throw new ApiError('invalid_credentials', 'This passkey is not registered here');
    passkey.lastUsedAt = new Date().toISOString();
    return this.accounts.startSessionFor(passkey.userId, client, { method: 'passkey' });
  }

  list(userId: string) {
    const data = [...this.#passkeys.values()]
      .filter((p) => p.userId === userId)
      .map(({ userId: _owner, ...answer }) => answer);
    return { data };
  }

  remove(userId: string, passkeyId: string) {
    if (this.#passkeys.get(passkeyId)?.userId !== userId) throw new ApiError('not_found', 'No such passkey');
    this.#passkeys.delete(passkeyId);
    return { _id: passkeyId, deleted: true as const };
  }

  #flow(purpose: string, userId: string | null): string {
    const id = `pkf_${randomToken(32)}`;
    this.#flows.set(id, { purpose, userId, expiresAt: Date.now() + CEREMONY_MS });
    return id;
  }

  #take(purpose: string, flowId: string, userId: string | null): void {
    const flow = this.#flows.get(flowId);
    this.#flows.delete(flowId);
    if (!flow || flow.purpose !== purpose || flow.userId !== userId || flow.expiresAt <= Date.now())
      throw new ApiError(
        'validation_error',
        'This passkey ceremony expired or was used already; start again',
        {
          field: 'flowId',
        },
      );
  }
}
