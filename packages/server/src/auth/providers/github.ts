import { ApiError } from '../../http/errors.js';
import { type AuthorizationRequest, exchangeCode, type IdentityProviderClient } from './provider.js';
import type { GitHubSettings } from './settings.js';

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/** GitHub sign-in: the person from `GET /user`, the e-mail only when it is their verified primary address. */
export class GitHubProvider implements IdentityProviderClient {
  constructor(private readonly settings: GitHubSettings) {}

  authorizationUrl(request: AuthorizationRequest): string {
    const url = new URL(this.settings.authorizationUrl);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      redirect_uri: request.redirectUri,
      scope: 'read:user user:email',
      state: request.state,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
      allow_signup: 'true',
    }).toString();
    return url.toString();
  }

  async identify(code: string, verifier: string, request: { redirectUri: string }) {
    const tokens = await exchangeCode(this.settings.tokenUrl, {
      code,
      code_verifier: verifier,
      redirect_uri: request.redirectUri,
      client_id: this.settings.clientId,
      client_secret: this.settings.clientSecret,
    });
    if (typeof tokens.access_token !== 'string')
      throw new ApiError('invalid_credentials', 'The provider answered without an access token');
    const user = (await this.get('/user', tokens.access_token)) as {
      id?: unknown;
      login?: unknown;
      name?: unknown;
    };
    const emails = (await this.get('/user/emails', tokens.access_token)) as GitHubEmail[];
    if (typeof user.id !== 'number' && typeof user.id !== 'string')
      throw new Error('GitHub answered /user without an id');
    // An unverified or secondary address could belong to someone else; only the verified primary one names the person.
    const primary = Array.isArray(emails) ? emails.find((e) => e.primary && e.verified) : undefined;
    if (!primary)
      throw new ApiError('forbidden', 'The GitHub account has no verified primary e-mail address');
    const name =
      typeof user.name === 'string' && user.name.trim()
        ? user.name
        : typeof user.login === 'string'
          ? user.login
          : primary.email;
    return { subject: String(user.id), email: primary.email, name: name.slice(0, 100) };
  }

  private async get(path: string, accessToken: string): Promise<unknown> {
    const res = await fetch(`${this.settings.apiUrl}${path}`, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'dataplatform',
      },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`GitHub answered ${path} with ${res.status}`);
    return res.json();
  }
}
