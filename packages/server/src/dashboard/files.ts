import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the dashboard's built files are: `dist/dashboard/` beside the server's own bundle (the build copies them
 * there, tsup.config.ts), or `packages/dashboard/dist/` when the server runs from source (tests, `pnpm dev`).
 * Null when neither exists: the dashboard was not built.
 */
export function dashboardDirectory(): string | null {
  const candidates = [
    new URL('./dashboard/', import.meta.url),
    new URL('../../../dashboard/dist/', import.meta.url),
  ];
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate);
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** A file of the dashboard as sent: its bytes, its gzip form when the build made one, and its media type. */
export interface DashboardFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
}

/** Names the build writes: letters, digits, dots, dashes and underscores, in at most one folder (`assets/`). */
const SAFE_NAME = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)?[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * Reads the dashboard's files on first request and keeps them (the build is a few hundred kilobytes and never
 * changes while the server runs). A name that is not one the build could write is never looked up, so no path
 * leaves the folder.
 */
export class DashboardFiles {
  readonly #dir: string;
  readonly #cache = new Map<string, Promise<DashboardFile | null>>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  get(name: string): Promise<DashboardFile | null> {
    if (!SAFE_NAME.test(name) || name.endsWith('.gz')) return Promise.resolve(null);
    let file = this.#cache.get(name);
    if (!file) {
      file = this.#read(name);
      this.#cache.set(name, file);
    }
    return file;
  }

  async #read(name: string): Promise<DashboardFile | null> {
    const path = join(this.#dir, name);
    const type = TYPES[extname(name)];
    if (!type) return null;
    const body = await readFile(path).catch(() => null);
    if (!body) return null;
    const gzip = await readFile(`${path}.gz`).catch(() => null);
    return { body, gzip, type };
  }
}
