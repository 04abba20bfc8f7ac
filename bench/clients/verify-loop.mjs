/**
 * Measures one webhook verifier (bench/lib/webhook-targets.mjs) in a process of its own, so that no other
 * target's code or garbage shares its JIT and heap. Prints `{ calls, seconds, cpuMicroseconds, others }`.
 * Usage: node verify-loop.mjs <target> <warm-up seconds> <seconds>
 */
import { watchCpu } from '../lib/cpu.mjs';
import { tamperedBody, targets } from '../lib/webhook-targets.mjs';

const [name, warmup, duration] = process.argv.slice(2);
const target = targets[name];
if (!target) throw new Error(`unknown target ${name}; one of ${Object.keys(targets).join(', ')}`);

// A benchmark of a verifier that accepts anything would measure nothing.
if ((await target.run()) !== true) throw new Error(`${name} refused a valid delivery`);
const refused = await Promise.resolve()
  .then(() => target.tampered(tamperedBody()))
  .then(
    (accepted) => !accepted,
    () => true,
  );
if (!refused) throw new Error(`${name} accepted a tampered body`);

const BATCH = 500;
async function loop(seconds) {
  const end = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  let calls = 0;
  let accepted = 0;
  while (process.hrtime.bigint() < end) {
    if (target.async) for (let i = 0; i < BATCH; i++) accepted += (await target.run()) ? 1 : 0;
    else for (let i = 0; i < BATCH; i++) accepted += target.run() ? 1 : 0;
    calls += BATCH;
  }
  if (accepted !== calls) throw new Error(`${name} refused ${calls - accepted} valid deliveries`);
  return calls;
}

await loop(Number(warmup));
const watch = watchCpu([]);
const cpuBefore = process.cpuUsage();
const started = process.hrtime.bigint();
const calls = await loop(Number(duration));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const cpu = process.cpuUsage(cpuBefore);
console.log(JSON.stringify({ calls, seconds, cpuMicroseconds: cpu.user + cpu.system, others: watch.stop() }));
