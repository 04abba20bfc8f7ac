/**
 * CPU accounting from /proc (Linux): how much of the machine other processes took while a figure was measured.
 * The figures are only comparable when that share is small, so it is reported beside them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

// /proc counts in clock ticks of 1/100 s on Linux; process.cpuUsage() counts microseconds.
const MICROSECONDS_PER_TICK = 10_000;

function machineTicks() {
  // user nice system idle iowait irq softirq steal ...; interrupts are left out of "busy" because the kernel
  // handles loopback traffic there, on behalf of the benchmark, without charging a process.
  const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  return { busy: f[0] + f[1] + f[2] + f[7], total: f.slice(0, 8).reduce((sum, value) => sum + value, 0) };
}

function processTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1).trim().split(/\s+/);
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * CPU time (user + system, in microseconds, at the 10 ms grain of /proc) that `pids` have used so far; a process
 * that has ended counts 0, so take both readings over the same list. Null without /proc.
 */
export function cpuTime(pids) {
  if (!existsSync('/proc/self/stat')) return null;
  return pids.reduce((sum, pid) => sum + processTicks(pid), 0) * MICROSECONDS_PER_TICK;
}

function ownTicks(pids) {
  const self = process.cpuUsage();
  return (
    (self.user + self.system) / MICROSECONDS_PER_TICK + pids.reduce((sum, pid) => sum + processTicks(pid), 0)
  );
}

/**
 * A process and all its descendants (PostgreSQL's postmaster and the backends it forks, which start their own
 * sessions), so that their CPU counts as the benchmark's own rather than as other work; `[root]` without /proc.
 */
export function processTree(root) {
  const children = new Map();
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // Fields after the command name: state, ppid, ...
        const ppid = Number(
          readFileSync(`/proc/${name}/stat`, 'utf8').split(')').at(-1).trim().split(/\s+/)[1],
        );
        children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
      } catch {
        // The process ended while the list was read.
      }
    }
  } catch {
    return [root];
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * Starts watching; `stop(extraMicroseconds)` returns the share (0–1) of all cores used by processes other than this
 * one and `pids` (plus `extraMicroseconds` of CPU that a child reported before it exited), or null without /proc.
 */
export function watchCpu(pids) {
  let before;
  try {
    before = { ...machineTicks(), own: ownTicks(pids) };
  } catch {
    return { stop: () => null };
  }
  return {
    stop(extraMicroseconds = 0) {
      const after = machineTicks();
      const own = ownTicks(pids) - before.own + extraMicroseconds / MICROSECONDS_PER_TICK;
      const total = after.total - before.total;
      return total > 0 ? Math.max(0, (after.busy - before.busy - own) / total) : 0;
    },
  };
}

/**
 * Waits until other processes leave the machine mostly idle (below `threshold` over one second), for at most
 * `patience` ms; resolves with the last share seen, or null without /proc.
 */
export async function waitForQuiet(pids, { threshold = 0.25, patience = 30_000 } = {}) {
  const deadline = Date.now() + patience;
  for (;;) {
    const watch = watchCpu(pids);
    await sleep(1000);
    const share = watch.stop();
    if (share === null || share < threshold || Date.now() >= deadline) return share;
  }
}
