import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';
import type { IdentityProviderSettings } from '../src/auth/providers/settings.js';

export const CLIENT_ID = 'dataplatform-test';
export const CLIENT_SECRET = 'test-client-secret';

/** A real OpenID Connect provider on loopback standing in for Google; `person` is who the next ID tokens name. */
export async function startGoogle() {
  const oidc = new OAuth2Server();
  await oidc.issuer.keys.generate('RS256');
  await oidc.start(0, '127.0.0.1');
  const issuer = oidc.issuer.url!;
  const person = { sub: 'google-1', email: 'g@example.com', email_verified: true, name: 'G User' };
  oidc.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, person);
  });
  return {
    person,
    settings: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      issuer,
      authorizationUrl: `${issuer}/authorize`,
      tokenUrl: `${issuer}/token`,
      jwksUrl: `${issuer}/jwks`,
    },
    stop: () => oidc.stop(),
  };
}

/** GitHub's three endpoints on loopback: authorize, access_token (checking the PKCE verifier), /user and /user/emails. */
export async function startGitHub() {
  const codes = new Map<string, string>();
  const tokens = new Set<string>();
  const person = {
    id: 4242,
    login: 'octo',
    name: 'Octo Cat',
    emails: [
      { email: 'octo@example.com', primary: true, verified: true },
      { email: 'other@example.com', primary: false, verified: true },
    ],
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      const code = randomUUID();
      if (url.searchParams.get('code_challenge_method') !== 'S256') return json(400, { error: 'pkce' });
      codes.set(code, url.searchParams.get('code_challenge')!);
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state')!);
      return res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += chunk;
      const form = new URLSearchParams(text);
      const challenge = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const derived = createHash('sha256').update(verifier).digest('base64url');
      // GitHub answers 200 with an error field for a bad code.
      if (!challenge || derived !== challenge || form.get('client_secret') !== CLIENT_SECRET)
        return json(200, { error: 'bad_verification_code' });
      const token = `gho_${randomUUID()}`;
      tokens.add(token);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    if (!tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) return json(401, {});
    if (url.pathname === '/user') return json(200, { id: person.id, login: person.login, name: person.name });
    if (url.pathname === '/user/emails') return json(200, person.emails);
    json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    person,
    settings: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      authorizationUrl: `${base}/login/oauth/authorize`,
      tokenUrl: `${base}/login/oauth/access_token`,
      apiUrl: base,
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Provider settings of a test server from the stand-ins. */
export function providerSettings(
  google: Awaited<ReturnType<typeof startGoogle>>,
  github: Awaited<ReturnType<typeof startGitHub>>,
): IdentityProviderSettings {
  return {
    google: { configured: true, settings: google.settings },
    github: { configured: true, settings: github.settings },
  };
}

/** Follows a provider sign-in by hand, as a browser would, and returns the callback's answer. */
export async function providerSignIn(
  serverUrl: string,
  provider: 'google' | 'github',
  query = 'redirect_to=/account',
): Promise<Response> {
  const start = await fetch(`${serverUrl}/api/auth/${provider}?${query}`, { redirect: 'manual' });
  if (start.status !== 302) throw new Error(`start answered ${start.status}: ${await start.text()}`);
  const cookie = start.headers.get('set-cookie')!.split(';')[0]!;
  const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  const callback = atProvider.headers.get('location')!;
  return fetch(callback, { redirect: 'manual', headers: { cookie } });
}

/** The token in the fragment of a callback's redirect to a page of the server. */
export function fragmentToken(res: Response): string {
  const location = res.headers.get('location') ?? '';
  const token = new URLSearchParams(location.split('#')[1] ?? '').get('token');
  if (!token) throw new Error(`no token in ${res.status} ${location}`);
  return token;
}
