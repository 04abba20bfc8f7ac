import type { AuthChanges } from '../auth-cache.js';

/**
 * One process writes a SQLite database, and every write that changes what authentication decides goes through
 * the cache's own `write`: there is nothing else to hear, and an answer holds until such a write.
 */
export const sqliteAuthChanges: AuthChanges = {
  maxAgeMs: Number.POSITIVE_INFINITY,
  hearing: true,
  watch() {},
  async announce() {},
  async close() {},
};
