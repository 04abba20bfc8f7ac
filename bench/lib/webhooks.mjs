/**
 * The webhook verification benchmark: each verifier of bench/lib/webhook-targets.mjs in its own process
 * (clients/verify-loop.mjs), in rounds whose order alternates, and the section of docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const LOOP = fileURLToPath(new URL('../clients/verify-loop.mjs', import.meta.url));
const TARGETS = [
  'raw-x-webhook',
  'verify-x-webhook',
  'raw-both',
  'verify-both',
  'verify-standard',
  'standardwebhooks',
  'verify-async-x-webhook',
];

/**
 * [goal name, target, baseline, least ratio]. A ratio compares verifications per CPU second (the baseline's CPU
 * time per verification ÷ the target's): on a machine shared with other work, time spent waiting for a core
 * would otherwise count against whichever target was unlucky.
 */
const GOALS = [
  ['`verify` vs raw node:crypto HMAC + timingSafeEqual', 'verify-x-webhook', 'raw-x-webhook', 0.8],
  ['`verify` vs the `standardwebhooks` package', 'verify-standard', 'standardwebhooks', 3],
];
/** Other comparisons shown beside the figures: target → baseline. */
const BASELINES = {
  'verify-x-webhook': 'raw-x-webhook',
  'verify-both': 'raw-both',
  'verify-standard': 'standardwebhooks',
  'verify-async-x-webhook': 'raw-x-webhook',
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const number = (value) => Math.round(value).toLocaleString('en-US');
const times = (value) => `${value.toFixed(2)}×`;
const percent = (share) => (share === null ? '–' : `${Math.round(share * 100)} %`);

function measure(target, { warmup, duration }) {
  const result = spawnSync(process.execPath, [LOOP, target, String(warmup), String(duration)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`measuring ${target} failed (exit ${result.status})`);
  const { calls, seconds, cpuMicroseconds, others } = JSON.parse(result.stdout);
  return { rate: calls / seconds, perCpuSecond: (calls / cpuMicroseconds) * 1e6, others };
}

/** Runs every target in every round; returns the rounds' measurements per target. */
export function runWebhookBenchmark({ rounds, warmup, duration, log }) {
  const measured = Object.fromEntries(TARGETS.map((target) => [target, []]));
  for (let round = 0; round < rounds; round++) {
    // Every other round runs the targets in reverse, so that none always goes first.
    const order = round % 2 ? [...TARGETS].reverse() : TARGETS;
    for (const target of order) {
      const m = measure(target, { warmup, duration });
      measured[target].push(m);
      log(
        `  round ${round + 1}/${rounds} ${target.padEnd(24)} ${number(m.perCpuSecond)} per CPU second, ${number(m.rate)}/s`,
      );
    }
  }
  return measured;
}

/** Per round, target ÷ baseline; the median and range of those ratios. */
function ratioOf(measured, target, baseline) {
  const ratios = measured[target].map((m, round) => m.perCpuSecond / measured[baseline][round].perCpuSecond);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

function standardwebhooksVersion() {
  const require = createRequire(fileURLToPath(new URL('../package.json', import.meta.url)));
  return require('standardwebhooks/package.json').version;
}

/** `{ markdown, goals }`: the page's section, and its goals table alone for the console. */
export function renderWebhookSection(measured, { rounds, warmup, duration, bodyLength, command, date }) {
  const goalRows = GOALS.map(([name, target, baseline, least]) => {
    const ratio = ratioOf(measured, target, baseline);
    const verdict = ratio.median >= least ? 'met' : 'not met';
    return `| ${name} | ≥ ${least}× | ${times(ratio.median)} (${times(ratio.min)}–${times(ratio.max)}) | **${verdict}** |`;
  });
  const goals = ['| goal | target | measured | verdict |', '|---|---:|---:|---|', ...goalRows].join('\n');
  const figureRows = TARGETS.map((target) => {
    const rounds = measured[target];
    const perCpu = rounds.map((m) => m.perCpuSecond);
    const baseline = BASELINES[target];
    const ratio = baseline ? `${times(ratioOf(measured, target, baseline).median)} of ${baseline}` : '–';
    const others = percent(median(rounds.map((m) => m.others ?? 0)));
    return `| ${target} | ${number(median(perCpu))} | ${number(Math.min(...perCpu))}–${number(Math.max(...perCpu))} | ${number(median(rounds.map((m) => m.rate)))} | ${ratio} | ${others} |`;
  });
  const markdown = `## Webhook verification

Produced by \`${command}\` (bench/webhooks.mjs; \`pnpm bench\` runs it as its last part) on ${date}, with
Node.js ${process.version} on ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}).

${goals}

Verifying one delivery whose body is ${bodyLength.toLocaleString('en-US')} bytes of JSON, as a Node.js receiver holds it: the body a
\`Buffer\`, the headers Node's lower-case \`req.headers\` (with the usual host, content-type, user-agent and so on).
The secret is a \`whsec_\` secret of 32 bytes, the tolerance the default 5 minutes.

- **raw-x-webhook**, the baseline: \`timingSafeEqual(Buffer.from(req.headers['x-webhook-signature'], 'hex'),
  createHmac('sha256', secret).update(body).digest())\`, with the length check that \`timingSafeEqual\` needs.
  It reads one header and checks nothing else.
- **verify-x-webhook**: \`verify(body, req.headers, secret)\` from \`@dataplatform/webhooks/node\` (its build in
  \`dist/\`) on a delivery with the X-Webhook-* headers only: the same HMAC, plus finding the headers in any case,
  checking their format and X-Webhook-Timestamp's age.
- **raw-both** and **verify-both**: the same for a delivery as the server sends it, with both signature schemes (two
  HMACs, the second over \`id.timestamp.body\` with the base64-decoded key).
- **verify-standard** and **standardwebhooks**: a delivery with the Standard Webhooks headers only, verified by
  \`verify\` and by \`new Webhook(secret).verify(body, req.headers)\` of \`standardwebhooks\` ${standardwebhooksVersion()}
  (made once, as a receiver would; it also parses the body as JSON, which is part of its \`verify\`).
- **verify-async-x-webhook**: \`await verifyAsync(...)\`, the Web Crypto form for Deno, Bun, browsers and edge
  runtimes, on the X-Webhook-* delivery, one verification at a time.
- Every target runs in its own Node process, after checking that it accepts the delivery and refuses a body with
  one byte changed: ${warmup} s of warm-up, then ${duration} s of verifications back to back, in ${rounds} rounds; every
  other round runs the targets in reverse order. The figure is verifications per CPU second: verifications
  divided by the CPU time (user and system) of the target's process, which on a machine shared with other work
  leaves out the time spent waiting for a core; wall-clock verifications per second are shown beside it. Figures
  are medians over the rounds, with their range; a ratio is the median of the rounds' ratios (target and
  baseline from the same round). "Others' CPU" is the share of the machine other processes used meanwhile
  (from /proc).

| target | verifications per CPU second (median) | range | verifications/s, wall clock | ratio | others' CPU |
|---|---:|---:|---:|---|---:|
${figureRows.join('\n')}
`;
  return { markdown, goals };
}
