/**
 * Summarizes V8 .cpuprofile files: where a server spends its time. V8 samples on a wall-clock timer, so time the
 * thread spends descheduled inside a system call (writev on a busy 2-core machine) counts too; Linux `perf` on the
 * server process gives pure CPU time when that matters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package or area a script URL belongs to, so that time can be added up per dependency. */
function areaOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : 'native (V8 builtins, C++ bindings)';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pnpm) return pnpm[1];
  const workspace = /packages\/([^/]+)\//.exec(url);
  if (workspace) return `@dataplatform/${workspace[1]}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  return url;
}

function percentRows(map, total, limit) {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)} %  ${name}`);
}

/** Self time per function and per area of one profile, as text. */
export function summarizeProfile(file, limit = 25) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map();
  for (const [i, id] of profile.samples.entries()) {
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const byFunction = new Map();
  const byArea = new Map();
  let total = 0;
  for (const [id, time] of selfTime) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    // Idle time is the server waiting for the network, not work it does.
    if (functionName === '(idle)') continue;
    total += time;
    const where = url
      ? `${url.replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')}:${lineNumber + 1}`
      : '';
    const name = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
    const area = areaOf(url, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + time);
  }
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s sampled (idle excluded)`,
    'by area:',
    ...percentRows(byArea, total, 15),
    'by function (self time):',
    ...percentRows(byFunction, total, limit),
  ].join('\n');
}

/** Summaries of every profile under `dir` (one folder per server). */
export function summarizeProfiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((name) => String(name).endsWith('.cpuprofile'))
    .map((name) => summarizeProfile(join(dir, String(name))))
    .join('\n\n');
}
