import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError } from '../../errors/cli-error.js';
import { ExitCode } from '../../errors/exit-codes.js';

/** What the sign-in page posts to the loopback callback. */
export interface ReceivedSession {
  token: string;
  expiresAt: string;
}

/** A loopback listener waiting for the one sign-in it asked for. */
export interface LoopbackReceiver {
  /** Where the sign-in page should post: `http://127.0.0.1:<port>/callback`. */
  redirectTo: string;
  /** The random value the page must echo; it ties the answer to this listener. */
  state: string;
  /** Resolves with the session once the page posted the right state; rejects on time-out. */
  session: Promise<ReceivedSession>;
  /** Stops listening (also done once a session arrived or the time ran out). */
  close(): void;
}

/** A form holds a token, an expiry and a state: a few hundred bytes. More is not a sign-in page. */
const MAX_BODY = 16 * 1024;

const PAGE_STYLE =
  'font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5';

function page(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="${PAGE_STYLE}"><h1>${title}</h1><p>${text}</p></body></html>`;
}

const SIGNED_IN = page('Signed in — you can close this tab', 'The dp command line has your session.');
const NOT_OURS = page(
  'This sign-in was not started here',
  'The answer does not belong to the dp login that is waiting. Start again with dp login.',
);

/** "90 seconds", "5 minutes": how long was waited, in the words a person uses. */
export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.round(seconds / 60)} minutes`;
}

/** Compares the posted state with ours in constant time (hashes first, so lengths do not matter). */
function sameState(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function send(res: ServerResponse, status: number, html: string, extra: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    // The pages are plain text; nothing on them may run or be framed.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    connection: 'close',
    ...extra,
  });
  res.end(html);
}

function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) {
        resolve(undefined);
        req.destroy();
      }
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', () => resolve(undefined));
  });
}

/**
 * Listens on 127.0.0.1 on a free port for the sign-in page's form POST (docs/auth.md, "Browser sign-in and
 * `redirect_to`"). Only `POST /callback` with our `state` is taken; any other request is refused and the listener
 * keeps waiting, so a stray page or another program on the machine cannot end or hijack the sign-in. The first
 * right answer stops the listener: a session is handed over once.
 */
export async function startLoopbackReceiver(timeoutMs: number): Promise<LoopbackReceiver> {
  const state = randomBytes(32).toString('base64url');
  let settle!: { resolve: (s: ReceivedSession) => void; reject: (e: Error) => void };
  const session = new Promise<ReceivedSession>((resolve, reject) => {
    settle = { resolve, reject };
  });
  let done = false;
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/callback') return send(res, 404, page('Not found', 'Nothing here.'));
    if (req.method !== 'POST') return send(res, 405, page('Not allowed', 'Only POST.'), { allow: 'POST' });
    const form = await readForm(req);
    const token = form?.get('token');
    if (done || !form || !token || !sameState(form.get('state') ?? '', state)) {
      return send(res, 400, NOT_OURS);
    }
    done = true;
    send(res, 200, SIGNED_IN);
    finish();
    settle.resolve({ token, expiresAt: form.get('expiresAt') ?? '' });
  });
  const timer = setTimeout(() => {
    finish();
    settle.reject(
      new CliError(`no sign-in arrived from the browser within ${duration(timeoutMs)}`, {
        exitCode: ExitCode.auth,
        hint: 'run `dp login` again and finish signing in on the page; on a machine without a browser use `dp login --no-browser`',
      }),
    );
  }, timeoutMs);
  timer.unref();
  function finish() {
    done = true;
    clearTimeout(timer);
    // Ends idle keep-alive sockets too, so the process can exit as soon as the answer is written.
    server.close();
    server.closeIdleConnections();
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { redirectTo: `http://127.0.0.1:${port}/callback`, state, session, close: finish };
}
