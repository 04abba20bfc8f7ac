import { randomBytes } from 'node:crypto';
import type { ServerConfig } from '../config.js';
import { lazy } from '../lazy.js';
import type { Storage } from '../storage/types.js';

/** jose, loaded by the first session token signed or checked: a server used with API keys only never needs it. */
const jose = lazy(() => import('jose'));

// One algorithm, pinned on both sides: a token that names another (`none`, RS256 with our key as "public key") is refused.
const ALGORITHM = 'HS256';
const ISSUER = 'dataplatform';
const AUDIENCE = 'dataplatform:session';
const SECRET_NAME = 'session-signing-key';
const MIN_SECRET_LENGTH = 32;

/** What a valid session token says: whose session it is. */
export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/** The outcome of reading a token: its claims, or why it is refused. */
export type TokenCheck = SessionClaims | 'expired' | 'invalid';

/**
 * Signs and verifies session tokens (JWT, HS256). Every instance must hold the same key: it comes from
 * DATAPLATFORM_SESSION_SECRET, or (development) is made once and kept in the database the instances share.
 */
export class SessionTokens {
  private constructor(private readonly key: Uint8Array) {}

  /** The tokens of this deployment, with the configured key or the one kept in the database. */
  static async load(
    config: Pick<ServerConfig, 'sessionSecret' | 'mode'>,
    storage: Storage,
  ): Promise<SessionTokens> {
    if (config.sessionSecret !== undefined) {
      if (config.sessionSecret.length < MIN_SECRET_LENGTH)
        throw new Error(`DATAPLATFORM_SESSION_SECRET must have at least ${MIN_SECRET_LENGTH} characters`);
      return new SessionTokens(new TextEncoder().encode(config.sessionSecret));
    }
    if (config.mode === 'production')
      throw new Error(
        'DATAPLATFORM_SESSION_SECRET is required in production (at least 32 random characters)',
      );
    const stored = await storage.secrets.getOrCreate(SECRET_NAME, () =>
      randomBytes(32).toString('base64url'),
    );
    return new SessionTokens(Buffer.from(stored, 'base64url'));
  }

  /** A token for the session, valid until `expiresAt`. */
  async sign(claims: SessionClaims, expiresAt: Date): Promise<string> {
    const { SignJWT } = await jose();
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.userId)
      .setJti(claims.sessionId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** Checks signature, algorithm, issuer, audience and expiry. */
  async verify(token: string): Promise<TokenCheck> {
    const { errors, jwtVerify } = await jose();
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'exp', 'sid'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return 'invalid';
      return { userId: payload.sub, sessionId: payload.sid };
    } catch (error) {
      // Expired is only reported for a token whose signature checked out (jose verifies before it reads claims).
      if (error instanceof errors.JWTExpired) return 'expired';
      return 'invalid';
    }
  }
}
