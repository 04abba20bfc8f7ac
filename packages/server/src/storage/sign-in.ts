/** A short-lived step of a sign-in (an OAuth authorization, a passkey challenge), used once. */
export interface SignInFlow {
  id: string;
  /** What the flow is for, such as `oauth:google` or `passkey:register`; a flow is only taken for its purpose. */
  purpose: string;
  /** The flow's facts (PKCE verifier, nonce, challenge, where to go next); no reusable secret of a user. */
  payload: Record<string, unknown>;
  expiresAt: string;
}

/** An identity at an external provider, linked to a user. */
export interface LinkedIdentity {
  provider: string;
  /** The provider's stable id of the person (`sub` of Google, the numeric id of GitHub). */
  subject: string;
  userId: string;
  email: string;
  createdAt: string;
}

/** A passkey (WebAuthn credential) of a user. */
export interface PasskeyRecord {
  /** The credential id, base64url. */
  id: string;
  userId: string;
  name: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** Signature counter last seen; 0 for authenticators that keep none. */
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Sign-in flows, external identities and passkeys. */
export interface SignInStore {
  createFlow(flow: SignInFlow): Promise<void>;
  /** Deletes and returns the flow when it exists, has this purpose and has not expired: a flow works once. */
  takeFlow(id: string, purpose: string, now: string): Promise<SignInFlow | null>;
  /** Deletes flows that expired before `before`; returns how many. */
  purgeFlows(before: string): Promise<number>;
  /** The user linked to the provider's subject, if any. */
  findIdentity(provider: string, subject: string): Promise<string | null>;
  /** Links the identity to the user; a link that exists already is kept as it is. */
  linkIdentity(identity: LinkedIdentity): Promise<void>;
  addPasskey(passkey: PasskeyRecord): Promise<void>;
  findPasskey(id: string): Promise<PasskeyRecord | null>;
  listPasskeys(userId: string): Promise<PasskeyRecord[]>;
  /**
   * Records a use: sets the counter when it is still `previousCounter` (so two uses of one assertion at once cannot
   * both pass) and the time of use. False when the counter had moved.
   */
  usePasskey(id: string, previousCounter: number, counter: number, now: string): Promise<boolean>;
  /** Deletes a passkey of the user; false when the user has none with that id. */
  deletePasskey(userId: string, id: string): Promise<boolean>;
}
