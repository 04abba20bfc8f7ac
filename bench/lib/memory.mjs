/**
 * A process's resident memory from /proc (Linux), split the way the kernel counts it: anonymous memory (the heap,
 * JavaScript's and native allocators', stacks: what the process itself allocated) apart from file-backed memory
 * (pages of mapped files such as the executable, shared libraries and an mmap'ed database, which the kernel can
 * drop and read again) and shared memory.
 */

import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const KIB = 1024;

/** `{ anon, file, shmem, rss }` in bytes for `pid` (and the sum over `pids` when given a list), or null. */
export function residentMemory(pids) {
  const list = Array.isArray(pids) ? pids : [pids];
  const sum = { anon: 0, file: 0, shmem: 0, rss: 0 };
  for (const pid of list) {
    let status;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      return null;
    }
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * KIB;
    sum.anon += field('RssAnon');
    sum.file += field('RssFile');
    sum.shmem += field('RssShmem');
    sum.rss += field('VmRSS');
  }
  return sum;
}

/**
 * Samples the resident memory of `pids` every `interval` ms until `stop()`, which returns the sample with the
 * largest anonymous part (and the largest file-backed part seen, which may come from another sample).
 */
export function sampleMemory(pids, interval = 100) {
  let peak = null;
  let running = true;
  const take = () => {
    const now = residentMemory(pids);
    if (!now) return;
    peak = peak
      ? {
          ...(now.anon > peak.anon ? now : peak),
          file: Math.max(peak.file, now.file),
          rss: Math.max(peak.rss, now.rss),
        }
      : now;
  };
  const loop = (async () => {
    while (running) {
      take();
      await sleep(interval);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      take();
      return peak;
    },
  };
}
