/** Endpoints and client credentials of Google's OpenID Connect sign-in. */
export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  /** `iss` the ID token must carry. */
  issuer: string;
  authorizationUrl: string;
  tokenUrl: string;
  /** The provider's signing keys (JWKS), against which ID tokens are checked. */
  jwksUrl: string;
}

/** Endpoints and client credentials of GitHub's OAuth app sign-in. */
export interface GitHubSettings {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  /** Base of the REST API (`/user`, `/user/emails`). */
  apiUrl: string;
}

/** A provider is either configured, or names the settings it lacks (for the 404 of its routes). */
export type ProviderSettings<T> =
  | { configured: true; settings: T }
  | { configured: false; missing: string[] };

/** The external identity providers of this server. */
export interface IdentityProviderSettings {
  google: ProviderSettings<GoogleSettings>;
  github: ProviderSettings<GitHubSettings>;
}

function credentials<T>(
  env: NodeJS.ProcessEnv,
  prefix: string,
  rest: (id: string, secret: string) => T,
): ProviderSettings<T> {
  const id = env[`${prefix}_CLIENT_ID`];
  const secret = env[`${prefix}_CLIENT_SECRET`];
  if (id && secret) return { configured: true, settings: rest(id, secret) };
  const missing = [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`].filter((name) => !env[name]);
  return { configured: false, missing };
}

/** Reads the providers' settings; endpoints default to the real providers' and are settable for tests and proxies. */
export function loadProviderSettings(env: NodeJS.ProcessEnv): IdentityProviderSettings {
  const g = 'DATAPLATFORM_GOOGLE';
  const gh = 'DATAPLATFORM_GITHUB';
  return {
    google: credentials(env, g, (clientId, clientSecret) => ({
      clientId,
      clientSecret,
      issuer: env[`${g}_ISSUER`] || 'https://accounts.google.com',
      authorizationUrl: env[`${g}_AUTHORIZATION_URL`] || 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: env[`${g}_TOKEN_URL`] || 'https://oauth2.googleapis.com/token',
      jwksUrl: env[`${g}_JWKS_URL`] || 'https://www.googleapis.com/oauth2/v3/certs',
    })),
    github: credentials(env, gh, (clientId, clientSecret) => ({
      clientId,
      clientSecret,
      authorizationUrl: env[`${gh}_AUTHORIZATION_URL`] || 'https://github.com/login/oauth/authorize',
      tokenUrl: env[`${gh}_TOKEN_URL`] || 'https://github.com/login/oauth/access_token',
      apiUrl: (env[`${gh}_API_URL`] || 'https://api.github.com').replace(/\/+$/, ''),
    })),
  };
}
