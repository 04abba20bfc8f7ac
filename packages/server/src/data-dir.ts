import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Only the owner may enter the data directory: it holds every document, the encryption key and credentials. */
const DIRECTORY_MODE = 0o700;
/** Only the owner may read or write the files in it. */
const FILE_MODE = 0o600;

/**
 * Makes the data directory when it is missing, readable by its owner only (whatever the engine: the encryption key
 * and the outbox live there on PostgreSQL too). `:memory:` has none.
 */
export function prepareDataDir(dataDir: string): void {
  if (dataDir === ':memory:') return;
  mkdirSync(dataDir, { recursive: true, mode: DIRECTORY_MODE });
}

/**
 * Makes sure `file` exists readable and writable by its owner only, before a library opens it with its own default
 * mode: created so when missing, tightened when an earlier version left it readable by others.
 */
export function ownerOnlyFile(file: string): void {
  closeSync(openSync(file, 'a', FILE_MODE));
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, FILE_MODE);
}

/** Tightens `file` to its owner only when it exists (a database's `-wal` and `-shm` files from an earlier start). */
export function tightenIfPresent(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
