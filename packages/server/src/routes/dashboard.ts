import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type DashboardFile, DashboardFiles, dashboardDirectory } from '../dashboard/files.js';
import { ApiError } from '../http/errors.js';

/**
 * The dashboard's page policy: its own scripts, styles and images only (no CDN, no inline script), requests to this
 * server only, and never in a frame.
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function send(request: FastifyRequest, reply: FastifyReply, file: DashboardFile, cacheControl: string) {
  reply.header('cache-control', cacheControl).header('vary', 'accept-encoding').type(file.type);
  const accepts = String(request.headers['accept-encoding'] ?? '');
  if (file.gzip && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.body);
}

/**
 * Serves the dashboard (packages/dashboard) at `/dashboard`: hashed files under `/dashboard/assets/` for a year,
 * other files and the app's page revalidated on every load, and the page for every other address under
 * `/dashboard/`, where the app's own router takes over. The page needs no credential; the app signs in through
 * `/login` and calls the API with a session token (docs/architecture.md, "The dashboard").
 */
export function registerDashboard(app: FastifyInstance, dir: string | null = dashboardDirectory()) {
  const files = dir ? new DashboardFiles(dir) : null;

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = await files?.get('index.html');
    if (!index)
      throw new ApiError('not_found', 'The dashboard is not built: run `pnpm build` in the repository first');
    reply.header('content-security-policy', CSP).header('referrer-policy', 'no-referrer');
    return send(request, reply, index, 'no-cache');
  };

  app.get('/dashboard', page);
  app.get('/dashboard/*', async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    const file = files && name !== 'index.html' ? await files.get(name) : null;
    if (file)
      return send(
        request,
        reply,
        file,
        name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    // A missing build file is a 404, not the app: a stale page asking for an old chunk must fail visibly.
    if (name.startsWith('assets/')) throw new ApiError('not_found', `No dashboard file ${name}`);
    return page(request, reply);
  });
}
