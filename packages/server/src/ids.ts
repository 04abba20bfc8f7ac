import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Random bytes drawn from the operating system a pool at a time, instead of one system call per byte. */
const pool = Buffer.alloc(4096);
let next = pool.length;

/**
 * A uniform fraction in [0, 1) from one cryptographically random byte. The ULID library asks for one such fraction
 * per character of an id's random part, and by default draws each with its own call into the crypto module.
 */
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]! / 256;
}

/**
 * The one ULID generator of the process: ids sort by creation time, and ids made in the same millisecond still
 * sort in the order they were made.
 */
export const ulid = monotonicFactory(pooledRandom);
