import { randomBytes } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { ClientInfo } from '../auth/client.js';
import { ApiError } from '../http/errors.js';
import { lazy } from '../lazy.js';
import type { PasskeyRecord } from '../storage/sign-in.js';
import type { Storage } from '../storage/types.js';
import type { AccountService } from './accounts.js';
import type { ActivityLog } from './activity.js';

/** The WebAuthn library (and its certificate parsers), loaded by the first passkey request. */
const webauthn = lazy(() => import('@simplewebauthn/server'));

/** How long a ceremony's challenge stays valid. */
const CEREMONY_MINUTES = 5;

/** The relying party: the site passkeys are bound to. */
export interface RelyingParty {
  /** Host name the passkeys belong to (`localhost`, `example.com`). */
  id: string;
  /** Origins a ceremony may run in (`https://app.example.com`). */
  origins: string[];
  name: string;
}

/** A passkey as the API shows it (never the public key). */
export function passkeyAnswer(p: PasskeyRecord) {
  return {
    _id: p.id,
    name: p.name,
    createdAt: p.createdAt,
    lastUsedAt: p.lastUsedAt,
    deviceType: p.deviceType as 'singleDevice' | 'multiDevice',
    backedUp: p.backedUp,
    transports: p.transports,
  };
}

/**
 * Passkeys with @simplewebauthn/server: registration for a signed-in user, and sign-in with discoverable
 * credentials (no e-mail). Each ceremony's challenge is a stored flow used once, so a response cannot be replayed.
 */
export class PasskeyService {
  constructor(
    private readonly storage: Storage,
    private readonly accounts: AccountService,
    private readonly activity: ActivityLog,
    private readonly rp: () => RelyingParty,
  ) {}

  /** Options for `navigator.credentials.create()`, excluding the user's existing passkeys. */
  async registrationOptions(userId: string) {
    const user = await this.storage.accounts.findUser(userId);
    if (!user) throw new ApiError('unauthorized', 'Invalid session token');
    const existing = await this.storage.signIn.listPasskeys(userId);
    const rp = this.rp();
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: user.name,
      userID: new TextEncoder().encode(userId),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports as never })),
      // Discoverable, so that sign-in needs no e-mail: the authenticator offers the passkey by itself.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    return { flowId: await this.saveChallenge('passkey:register', options.challenge, userId), options };
  }

  /** Verifies a registration response and stores the passkey. */
  async register(
    userId: string,
    body: { flowId: string; response: unknown; name?: string },
    client: ClientInfo,
  ) {
    const challenge = await this.takeChallenge('passkey:register', body.flowId, userId);
    const rp = this.rp();
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await (await webauthn()).verifyRegistrationResponse({
        response: body.response as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
    } catch (error) {
      throw new ApiError('validation_error', `The passkey did not verify: ${(error as Error).message}`, {
        field: 'response',
      });
    }
    if (!verified.verified)
      throw new ApiError('validation_error', 'The passkey did not verify', { field: 'response' });
    const info = verified.registrationInfo;
    if (await this.storage.signIn.findPasskey(info.credential.id))
      throw new ApiError('conflict', 'This passkey is registered already');
    const passkey: PasskeyRecord = {
      id: info.credential.id,
      userId,
      name: body.name ?? 'Passkey',
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
    };
    await this.storage.signIn.addPasskey(passkey);
    await this.activity.record(userId, 'passkey.added', client, {
      passkeyId: passkey.id,
      name: passkey.name,
    });
    return passkeyAnswer(passkey);
  }

  /**
   * Options for `navigator.credentials.get()` with no allowed list: any passkey of this site may answer. Counted
   * against the per-address sign-in limit: every attempt needs fresh options, as a challenge works once.
   */
  async authenticationOptions(client: ClientInfo) {
    await this.accounts.countSignInAttempt(client);
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: this.rp().id,
      userVerification: 'preferred',
    });
    return { flowId: await this.saveChallenge('passkey:authenticate', options.challenge, null), options };
  }

  /** Verifies an assertion and signs its owner in. */
  async authenticate(body: { flowId: string; response: { id: string } }, client: ClientInfo) {
    const challenge = await this.takeChallenge('passkey:authenticate', body.flowId, null);
    const passkey = await this.storage.signIn.findPasskey(body.response.id);
    if (!passkey) throw new ApiError('invalid_credentials', 'This passkey is not registered here');
    const rp = this.rp();
    let newCounter: number;
    try {
      const verified = await (await webauthn()).verifyAuthenticationResponse({
        response: body.response as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: {
          id: passkey.id,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: false,
      });
      if (!verified.verified) throw new Error('not verified');
      newCounter = verified.authenticationInfo.newCounter;
    } catch {
      // A bad signature, another origin or RP id, or a counter that went back (a cloned authenticator).
      throw new ApiError('invalid_credentials', 'The passkey did not verify');
    }
    const now = new Date().toISOString();
    if (!(await this.storage.signIn.usePasskey(passkey.id, passkey.counter, newCounter, now)))
      throw new ApiError('invalid_credentials', 'The passkey was used at the same moment elsewhere');
    const user = await this.storage.accounts.findUser(passkey.userId);
    if (!user) throw new ApiError('invalid_credentials', 'This passkey is not registered here');
    return this.accounts.startSession(user, client, { method: 'passkey' });
  }

  async list(userId: string) {
    return { data: (await this.storage.signIn.listPasskeys(userId)).map(passkeyAnswer) };
  }

  async remove(userId: string, passkeyId: string, client: ClientInfo) {
    if (!(await this.storage.signIn.deletePasskey(userId, passkeyId)))
      throw new ApiError('not_found', 'No such passkey');
    await this.activity.record(userId, 'passkey.removed', client, { passkeyId });
    return { _id: passkeyId, deleted: true as const };
  }

  private async saveChallenge(purpose: string, challenge: string, userId: string | null): Promise<string> {
    const id = `pkf_${randomBytes(24).toString('base64url')}`;
    await this.storage.signIn.createFlow({
      id,
      purpose,
      payload: { challenge, userId },
      expiresAt: new Date(Date.now() + CEREMONY_MINUTES * 60_000).toISOString(),
    });
    return id;
  }

  private async takeChallenge(purpose: string, flowId: string, userId: string | null): Promise<string> {
    const flow = await this.storage.signIn.takeFlow(flowId, purpose, new Date().toISOString());
    // A registration flow belongs to the user who started it.
    if (!flow || flow.payload.userId !== userId || typeof flow.payload.challenge !== 'string')
      throw new ApiError(
        'validation_error',
        'This passkey ceremony expired or was used already; start again',
        {
          field: 'flowId',
        },
      );
    return flow.payload.challenge;
  }
}
