/** Turns the benchmark results into docs/benchmarks.md: machine, method, goals, one table per scenario. */
import { cpus, platform, release, totalmem } from 'node:os';

/** A count with thousands separators, e.g. `1,000,000`. */
export const number = (value) => Math.round(value).toLocaleString('en-US');
/** Milliseconds to two decimals, or a dash. */
export const ms = (value) => (value === undefined ? '–' : `${Math.round(value * 100) / 100}`);
/** A ratio cell, e.g. `1.23×`. */
export const ratio = (value) => `${value.toFixed(2)}×`;
/** A share of the CPU (0–1) as a percentage, or `?` when it could not be measured. */
export const percent = (share) => (typeof share === 'number' ? `${Math.round(share * 100)} %` : '?');

/** One measurement on one console line. */
export function formatResult(r) {
  return (
    `${Math.round(r.rps).toString().padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms` +
    (r.others === undefined ? '' : `  (others used ${percent(r.others)} of the CPU)`) +
    (r.failed ? `  ${r.failed} FAILED` : '')
  );
}

/** The median of a list of numbers. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One figure from several rounds: the median rate and latencies, the range of rates, every failure. */
export function combine(rounds) {
  const skipped = rounds.find((r) => r.skipped);
  if (skipped) return { skipped: skipped.skipped };
  const rates = rounds.map((r) => r.rps);
  const medianOf = (field) => {
    const values = rounds.flatMap((r) => (typeof r[field] === 'number' ? [r[field]] : []));
    return values.length ? median(values) : undefined;
  };
  return {
    rps: median(rates),
    min: Math.min(...rates),
    max: Math.max(...rates),
    p50: medianOf('p50'),
    p99: medianOf('p99'),
    mean: medianOf('mean'),
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
    others: medianOf('others'),
    cpuPerRequest: medianOf('cpuPerRequest'),
  };
}

/**
 * A goal is met when the ratio reaches the target and the subject answered every request. Failures of the
 * baseline (json-server timing out) are shown but do not decide: they can only make the baseline look slower.
 */
function judge(goal) {
  const { subject, baseline, target, value } = goal;
  if (!subject || !baseline || subject.skipped || baseline.skipped) {
    const reason = subject?.skipped ?? baseline?.skipped ?? 'not run';
    return { ...goal, measured: '–', verdict: `not measured (${reason})` };
  }
  const measured = value(subject, baseline);
  let verdict = measured >= target ? '**met**' : '**not met**';
  if (subject.failed > 0) verdict = `**not met** (${subject.failed} failed requests)`;
  else if (baseline.failed > 0) verdict += ` (baseline: ${baseline.failed} failed requests)`;
  return { ...goal, measured: ratio(measured), verdict };
}

const rate = (subject, baseline) => subject.rps / baseline.rps;

function goalsOf(r) {
  const get = r.reference?.get;
  const insert = r.reference?.insert;
  const { sdk, undici } = r.clients ?? {};
  return [
    {
      name: 'GET by id vs raw node:http ceiling',
      target: 0.5,
      subject: get,
      baseline: r.raw?.get,
      value: rate,
    },
    { name: 'GET by id vs json-server', target: 3, subject: get, baseline: r.jsonServer?.get, value: rate },
    {
      name: 'insert vs json-server',
      target: 5,
      subject: insert,
      baseline: r.jsonServer?.insert,
      value: rate,
    },
    { name: 'SDK vs undici.request (req/s)', target: 0.85, subject: sdk, baseline: undici, value: rate },
    {
      name: 'extra: SDK vs undici.request, client CPU per request (undici ÷ SDK)',
      target: 0.85,
      subject: sdk,
      baseline: undici,
      value: (subject, baseline) => baseline.cpuPerRequest / subject.cpuPerRequest,
    },
  ].map(judge);
}

/** A markdown table of `rows` ([label, result]); `relative(result)` fills the ratio column. */
function table(rows, relativeLabel, relative, extra) {
  const extraHead = extra ? ` ${extra.label} |` : '';
  const lines = [
    `| target | req/s (median) | range | p50 (ms) | p99 (ms) | failed | ${relativeLabel} |${extraHead} others' CPU |`,
    `|---|---:|---:|---:|---:|---:|---:|${extra ? '---:|' : ''}---:|`,
  ];
  for (const [label, result] of rows) {
    if (!result) continue;
    if (result.skipped) {
      lines.push(`| ${label} | skipped: ${result.skipped} |${' |'.repeat(extra ? 7 : 6)}`);
      continue;
    }
    const cells = [
      label,
      number(result.rps),
      `${number(result.min)}–${number(result.max)}`,
      ms(result.p50),
      ms(result.p99),
      result.failed,
      relative(result),
      ...(extra ? [extra.value(result)] : []),
      result.others === undefined ? '–' : percent(result.others),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** "a ÷ b" as a ratio cell, or a dash when either side is missing. */
const ratioCell = (a, b) => (a?.rps && b?.rps ? ratio(a.rps / b.rps) : '–');

/** The machine the figures were measured on, as a markdown list. */
export function machine() {
  const cores = cpus();
  return [
    `- CPU: ${cores.length} cores, ${cores[0]?.model.trim() ?? 'unknown model'}`,
    `- Memory: ${Math.round(totalmem() / 2 ** 30)} GiB`,
    `- Node.js ${process.version} on ${platform()} ${release()}`,
  ].join('\n');
}

/** The machine the page was produced on, as a markdown list. */ /** Renders `{ markdown, goals }`: the throughput part of the page, and its goals table alone for the console. */
export function renderReport(r, settings) {
  const goals = [
    '| goal | target | measured | verdict |',
    '|---|---:|---:|---|',
    ...goalsOf(r).map((g) => `| ${g.name} | ≥ ${g.target}× | ${g.measured} | ${g.verdict} |`),
  ].join('\n');
  const { connections, duration, warmup, rounds, documents, others } = settings;
  const busy = others.length
    ? `While they were measured, processes other than the benchmark's used ${percent(median(others))} of the CPU in
the median measurement and ${percent(Math.max(...others))} at most (column "others' CPU", read from /proc).`
    : 'The CPU use of other processes could not be measured (no /proc).';
  const markdown = `# Benchmarks

Produced by \`${settings.command}\` (bench/run.mjs) on ${new Date().toISOString().slice(0, 10)}. The page is
generated: change bench/, then run the command again rather than editing it. It is not part of the tests.

## Machine

${machine()}

The load generator shares these cores with the server under test, so the absolute figures are lower bounds and
vary from run to run; the goals are ratios between targets measured side by side.
${busy}

## Goals

${goals}

## Method

- Data: ${number(documents)} orders (\`customer\`, \`total\`, \`currency\`, \`items\`, \`status\`; about 300 bytes of
  JSON each, made from a fixed seed), loaded into every target before it is measured. A GET asks for a random
  seeded id; an insert sends one of 100 of those orders as a new document.
- Load: autocannon in the parent process, ${connections} connections, no pipelining. Every target runs in its own
  Node process and is warmed up (${warmup} s per scenario), then measured in ${rounds} rounds of ${duration} s per
  scenario; the rounds alternate the order of the targets. Figures are the median of the rounds, with the range of
  the rounds beside them; "failed" counts non-2xx answers, errors and timeouts in all rounds.
- **reference**: \`@dataplatform/server\` from its build (\`packages/server/dist\`), SQLite in a fresh temporary
  directory (WAL, \`synchronous=FULL\` unless stated), log level \`warn\`. Every request is authenticated with the
  development API key (\`X-API-Key\`) and passes the rate limiter; that key's enterprise tier has no limit.
  Routes: \`GET /api/v1/data/orders/{id}\`, \`POST /api/v1/data/orders\`.
- **raw node:http**: the ceiling. \`http.createServer\` answering GET from a \`Map\` of the same JSON text, and POST by
  parsing the body, adding an id and timestamps, storing it in the \`Map\` and answering 201. No auth, no
  validation, no disk.
- **json-server 0.17.4**: set up as \`json-server --quiet db.json\` does, over a db.json of the same orders
  (\`GET /orders/{id}\`, \`POST /orders\`). It finds a document by scanning the array and rewrites the whole db.json
  on every insert.
- **SDK vs undici**: against the reference server above, ${connections} concurrent loops in a separate client
  process, each sending its next GET by id when the previous answer is read; ${warmup} s warm-up then ${duration} s,
  once per round. SDK: \`new DataPlatform({ apiKey, baseUrl }).data.get('orders', id)\` with the default transport.
  undici: \`undici.request(url, { headers })\` then \`body.json()\`.
- To see where the reference server spends its time, \`node bench/run.mjs --profile\` profiles it under the same
  load (one CPU profile per scenario) and prints the heaviest functions instead of writing this page.

## GET by id

${table(
  [
    ['reference', r.reference?.get],
    ['raw node:http (ceiling)', r.raw?.get],
    ['json-server 0.17.4', r.jsonServer?.get],
  ],
  'reference ÷ this',
  (result) => ratioCell(r.reference?.get, result),
)}

## Insert

${table(
  [
    ['reference, synchronous=FULL (default)', r.reference?.insert],
    ['reference, synchronous=NORMAL', r.referenceNormal?.insert],
    ['raw node:http (ceiling, in memory)', r.raw?.insert],
    ['json-server 0.17.4', r.jsonServer?.insert],
  ],
  'reference (FULL) ÷ this',
  (result) => ratioCell(r.reference?.insert, result),
)}

\`synchronous=NORMAL\` is set with \`DATAPLATFORM_SQLITE_SYNCHRONOUS=NORMAL\`; it can lose the last commits on power
loss (not on a crash of the process), so the goal is judged on the default, \`FULL\`.

## SDK vs undici (client side, GET by id on the reference server)

${table(
  [
    ['undici.request', r.clients?.undici],
    ['SDK data.get', r.clients?.sdk],
  ],
  'this ÷ undici',
  (result) => ratioCell(result, r.clients?.undici),
  { label: 'client CPU per request (µs)', value: (result) => ms(result.cpuPerRequest) },
)}

When both clients drive the server to its limit they reach the same rate whatever their own cost, so the client
process's CPU time per request (measured phase only) is shown too, and compared in the last goal.
`;
  return { markdown, goals };
}
